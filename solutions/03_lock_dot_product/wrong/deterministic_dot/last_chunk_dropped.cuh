// A wrong answer to exercise 2 (lesson 03): an off-by-one, the chunks counted as n / kChunk, so a
// last chunk shorter than kChunk is never added.
// expect: fails: the dot product of n = [0-9]+ whole numbers
#pragma once

#include <cstddef>

#include "deterministic_dot_support.cuh"

namespace exercise03 {

constexpr std::size_t kChunk = 4096;
constexpr int kThreads = 256;

__global__ void chunk_dots(const float* a, const float* b, std::size_t n, float* partials) {
  const std::size_t whole_chunks = n / kChunk;
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  for (std::size_t c = blockIdx.x; c < chunks; c += gridDim.x) {
    float sum = 0;
    if (c < whole_chunks) {
      for (std::size_t i = c * kChunk + threadIdx.x; i < (c + 1) * kChunk; i += blockDim.x)
        sum += a[i] * b[i];
    }
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
