// A wrong answer to exercise 2 (lesson 03): the technique skipped where only speed shows it. Thread
// 0 of each block adds its chunk's 4096 products alone, in order; the other 255 threads add
// nothing (block_sum still runs, so the barrier is there). Each partial sum is its own chunk's, in
// an order fixed by the chunk, and well within the error bound; but a block reads with one thread.
// With 4 blocks per SM, as the timing runs, it takes many times the model answer's time.
// expect: slow
#pragma once

#include <cstddef>

#include "deterministic_dot_support.cuh"

namespace exercise03 {

constexpr std::size_t kChunk = 4096;
constexpr int kThreads = 256;

__global__ void chunk_dots(const float* a, const float* b, std::size_t n, float* partials) {
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  for (std::size_t c = blockIdx.x; c < chunks; c += gridDim.x) {
    const std::size_t end = (c + 1) * kChunk < n ? (c + 1) * kChunk : n;
    float sum = 0;
    if (threadIdx.x == 0) {
      for (std::size_t i = c * kChunk; i < end; ++i)
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
