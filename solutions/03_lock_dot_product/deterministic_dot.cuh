// Exercise 2 (lesson 03), solved: a fixed chunk of the input per partial sum, whatever the grid,
// and the partial sums added in a fixed order.
#pragma once

#include <cstddef>

#include "deterministic_dot_support.cuh"  // exercise03::block_sum (grading/)

namespace exercise03 {

constexpr std::size_t kChunk = 4096;
constexpr int kThreads = 256;

// For every chunk c of the n >= 1 elements (elements c * kChunk up to the next chunk or n):
// partials[c] = sum of a[i] * b[i] over the chunk, added in an order that depends on c and n
// alone. Block b takes chunks b, b + gridDim.x, ...; blockDim.x == kThreads; any gridDim.x.
__global__ void chunk_dots(const float* a, const float* b, std::size_t n, float* partials) {
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  for (std::size_t c = blockIdx.x; c < chunks; c += gridDim.x) {  // the same for the whole block
    const std::size_t end = (c + 1) * kChunk < n ? (c + 1) * kChunk : n;
    float sum = 0;
    for (std::size_t i = c * kChunk + threadIdx.x; i < end; i += blockDim.x)
      sum += a[i] * b[i];
    sum = block_sum(sum);  // the same tree for every chunk
    if (threadIdx.x == 0) partials[c] = sum;
    __syncthreads();  // block_sum's shared memory is used again for the next chunk
  }
}

// *result = the sum of partials[0, chunks), in an order that depends on chunks alone. One block of
// kThreads threads.
__global__ void add_partials(const float* partials, std::size_t chunks, float* result) {
  float sum = 0;
  for (std::size_t c = threadIdx.x; c < chunks; c += blockDim.x)
    sum += partials[c];
  sum = block_sum(sum);
  if (threadIdx.x == 0) *result = sum;
}

}  // namespace exercise03
