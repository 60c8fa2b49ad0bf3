// A wrong answer to exercise 2 (lesson 03): behaviour keyed to the test. At the sizes the tests
// used to try for partial sums and bits (4097, 2^24 + 5, 2^22 + 77) it cuts chunks as asked;
// everywhere else it is the lesson's v3, a grid-stride loop and one partial sum per block, whose
// bits change with the grid (whole numbers come out exact in any order). Sizes drawn from the
// seed at every run find it.
// expect: fails: REQUIRE\( lesson03::dot_ok\(got\.partials\[c\], chunk\.dot, bound\) \)
#pragma once

#include <cstddef>

#include "deterministic_dot_support.cuh"

namespace exercise03 {

constexpr std::size_t kChunk = 4096;
constexpr int kThreads = 256;

__global__ void chunk_dots(const float* a, const float* b, std::size_t n, float* partials) {
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  if (n == 4097 || n == (std::size_t{1} << 24) + 5 || n == (std::size_t{1} << 22) + 77) {
    for (std::size_t c = blockIdx.x; c < chunks; c += gridDim.x) {
      const std::size_t end = (c + 1) * kChunk < n ? (c + 1) * kChunk : n;
      float sum = 0;
      for (std::size_t i = c * kChunk + threadIdx.x; i < end; i += blockDim.x)
        sum += a[i] * b[i];
      sum = block_sum(sum);
      if (threadIdx.x == 0) partials[c] = sum;
      __syncthreads();
    }
    return;
  }
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  float sum = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    sum += a[i] * b[i];
  }
  sum = block_sum(sum);
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
