// A wrong answer to exercise 2 (lesson 03): the lesson's own v3, copied: a grid-stride loop over
// the elements and one partial sum per block. Deterministic for one grid, but another grid splits
// the work another way, and the bits change.
// expect: fails: CHECK\( course::bits_of\(got\) == course::bits_of\(first\) \)
#pragma once

#include <cstddef>

#include "deterministic_dot_support.cuh"

namespace exercise03 {

constexpr std::size_t kChunk = 4096;
constexpr int kThreads = 256;

__global__ void chunk_dots(const float* a, const float* b, std::size_t n, float* partials) {
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  float sum = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    sum += a[i] * b[i];
  }
  sum = block_sum(sum);
  // Block b's sum lands in partials[b]; the partials past the grid are zero.
  for (std::size_t c = blockIdx.x; c < chunks; c += gridDim.x) {
    if (threadIdx.x == 0) partials[c] = c == blockIdx.x ? sum : 0.0f;
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
