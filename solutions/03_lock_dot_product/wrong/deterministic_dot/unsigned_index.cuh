// An adversarial answer to exercise 2 (lesson 03): a bug just past the inputs the tests make. The
// elements are indexed with 32-bit unsigned ints ("int wraps at 2^31, unsigned goes to 2^32"): the
// chunk's first index c * kChunk, its end and every i are unsigned. Right for every n below 2^32,
// including the test past 2^31 (at most 2^31 + 2^20 elements); from 2^32 elements on (32 GiB of
// floats, which an 80 GiB GPU holds) the chunks past 2^32 wrap to the start of the arrays and add
// the wrong elements. Otherwise the model technique: chunks b, b + gridDim.x, ..., thread t adds
// elements t, t + 256, ..., block_sum, a fixed order in add_partials.
// expect: fails: FAILED:|did not finish in [0-9]+ s
#pragma once

#include <cstddef>

#include "deterministic_dot_support.cuh"

namespace exercise03 {

constexpr std::size_t kChunk = 4096;
constexpr int kThreads = 256;

__global__ void chunk_dots(const float* a, const float* b, std::size_t n, float* partials) {
  const unsigned chunks = static_cast<unsigned>((n + kChunk - 1) / kChunk);
  const unsigned count = static_cast<unsigned>(n);
  for (unsigned c = blockIdx.x; c < chunks; c += gridDim.x) {
    const unsigned begin = c * static_cast<unsigned>(kChunk);
    const unsigned end = (c + 1 == chunks) ? count : begin + static_cast<unsigned>(kChunk);
    float sum = 0.0f;
    for (unsigned i = begin + threadIdx.x; i < end; i += kThreads)
      sum += a[i] * b[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0) partials[c] = sum;
    __syncthreads();
  }
}

__global__ void add_partials(const float* partials, std::size_t chunks, float* result) {
  float sum = 0.0f;
  for (unsigned i = threadIdx.x; i < chunks; i += kThreads)
    sum += partials[i];
  sum = block_sum(sum);
  if (threadIdx.x == 0) *result = sum;
}

}  // namespace exercise03
