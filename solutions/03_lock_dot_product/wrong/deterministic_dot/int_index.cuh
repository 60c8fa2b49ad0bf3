// A wrong answer to exercise 2 (lesson 03): a bug the old inputs never reached. The elements are
// indexed with int: right up to 2^31 elements, but past that a chunk's first index and end wrap to
// negative numbers, so the last chunk before 2^31 adds nothing and the ones after it read 8 GiB
// before the arrays: wrong partial sums, or (where nothing is mapped there) an illegal address.
// Only an input of more than 2^31 elements (16 GiB, made on the GPU) shows it.
// expect: fails: (partial sums past 2\^31 elements|cudaErrorIllegalAddress)
#pragma once

#include <cstddef>

#include "deterministic_dot_support.cuh"

namespace exercise03 {

constexpr std::size_t kChunk = 4096;
constexpr int kThreads = 256;

__global__ void chunk_dots(const float* a, const float* b, std::size_t n, float* partials) {
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  for (std::size_t c = blockIdx.x; c < chunks; c += gridDim.x) {
    const int begin = static_cast<int>(c * kChunk);
    const int end = static_cast<int>((c + 1) * kChunk < n ? (c + 1) * kChunk : n);
    float sum = 0;
    for (int i = begin + static_cast<int>(threadIdx.x); i < end; i += kThreads)
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
