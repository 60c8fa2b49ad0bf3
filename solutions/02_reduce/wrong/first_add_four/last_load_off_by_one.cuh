// A wrong answer to exercise 1 (lesson 02): an off-by-one in the last load's bounds check, so the
// last element of the input is dropped whenever it falls to a thread's fourth load.
// expect: fails: the sum of n = [0-9]+ ints
#pragma once

#include <cstddef>

namespace exercise02 {

constexpr int kFirstAddThreads = 256;
constexpr int kLoadsPerThread = 4;

template <typename T>
__global__ void first_add_kernel(const T* in, std::size_t n, T* block_sums) {
  __shared__ T cache[kFirstAddThreads];
  const unsigned int tid = threadIdx.x;
  const std::size_t first =
      blockIdx.x * (kLoadsPerThread * static_cast<std::size_t>(blockDim.x)) + tid;
  T sum = T(0);
  for (int j = 0; j < kLoadsPerThread; ++j) {
    const std::size_t i = first + j * static_cast<std::size_t>(blockDim.x);
    if (j < kLoadsPerThread - 1 ? i < n : i + 1 < n) sum += in[i];
  }
  cache[tid] = sum;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if (tid == 0) block_sums[blockIdx.x] = cache[0];
}

}  // namespace exercise02
