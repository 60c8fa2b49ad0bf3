// A wrong answer to exercise 2 (lesson 03): the technique skipped where only speed shows it. Block
// 0 adds every chunk, in order, and every other block returns at once: each partial sum is its own
// chunk's and the bits are the same on any grid, but one SM reads the whole input. Against the
// model answer at 2 GiB it takes a hundred times as long or more.
// expect: slow
#pragma once

#include <cstddef>

#include "deterministic_dot_support.cuh"

namespace exercise03 {

constexpr std::size_t kChunk = 4096;
constexpr int kThreads = 256;

__global__ void chunk_dots(const float* a, const float* b, std::size_t n, float* partials) {
  if (blockIdx.x != 0) return;
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t end = (c + 1) * kChunk < n ? (c + 1) * kChunk : n;
    float sum = 0;
    for (std::size_t i = c * kChunk + threadIdx.x; i < end; i += blockDim.x)
      sum += a[i] * b[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0) partials[c] = sum;
    __syncthreads();
  }
}

__global__ void add_partials(const float* partials, std::size_t chunks, float* result) {
  float sum = 0;
  for (std::size_t c = threadIdx.x; c < chunks; c += blockDim.x)
    sum += partials[c];
  sum = block_sum(sum);
  if (threadIdx.x == 0) *result = sum;
}

}  // namespace exercise03
