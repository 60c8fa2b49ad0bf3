// A wrong answer to exercise 1 (lesson 02): the lesson's own v3, copied, with two elements per
// thread during the load instead of four. Half of each block's elements are never added.
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
  const std::size_t i = blockIdx.x * (2 * static_cast<std::size_t>(blockDim.x)) + tid;
  T sum = i < n ? in[i] : T(0);
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  cache[tid] = sum;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if (tid == 0) block_sums[blockIdx.x] = cache[0];
}

}  // namespace exercise02
