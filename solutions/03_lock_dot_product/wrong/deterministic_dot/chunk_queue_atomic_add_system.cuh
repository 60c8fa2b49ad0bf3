// A wrong answer to exercise 2 (lesson 03): a forbidden call spelt otherwise. Blocks take chunks
// from a queue, a counter in device memory raised with atomicAdd_system (a name the source check
// does not list), instead of chunks b, b + gridDim.x, ...; add_partials sets the counter back for
// the next call. Each chunk's sum is still its own, so the bits do not change: every test of the
// output passes. But the exercise allows no atomics, and its compiled code shows one, on any
// machine.
// expect: compiled: has an atomic \(atom or red\)
#pragma once

#include <cstddef>

#include "deterministic_dot_support.cuh"

namespace exercise03 {

constexpr std::size_t kChunk = 4096;
constexpr int kThreads = 256;

__device__ unsigned long long next_chunk = 0;

__global__ void chunk_dots(const float* a, const float* b, std::size_t n, float* partials) {
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  __shared__ unsigned long long taken;
  for (;;) {
    if (threadIdx.x == 0) taken = atomicAdd_system(&next_chunk, 1ull);
    __syncthreads();
    const std::size_t c = taken;
    if (c >= chunks) break;
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
  if (threadIdx.x == 0) {
    *result = sum;
    next_chunk = 0;
  }
}

}  // namespace exercise03
