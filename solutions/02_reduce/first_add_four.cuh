// Exercise 1 (lesson 02), solved: four adds during the load, then reduce2's tree.
#pragma once

#include <cstddef>

namespace exercise02 {

constexpr int kFirstAddThreads = 256;
constexpr int kLoadsPerThread = 4;

// Writes to block_sums[blockIdx.x] the sum of the kLoadsPerThread * blockDim.x elements of
// in[0, n) that start at blockIdx.x * kLoadsPerThread * blockDim.x (elements past n count as
// zero). blockDim.x == kFirstAddThreads. T is any type with + and +=, whose zero is T(0).
template <typename T>
__global__ void first_add_kernel(const T* in, std::size_t n, T* block_sums) {
  __shared__ T cache[kFirstAddThreads];
  const unsigned int tid = threadIdx.x;
  const std::size_t first =
      blockIdx.x * (kLoadsPerThread * static_cast<std::size_t>(blockDim.x)) + tid;
  T sum = T(0);
  for (int j = 0; j < kLoadsPerThread; ++j) {
    const std::size_t i = first + j * static_cast<std::size_t>(blockDim.x);
    if (i < n) sum += in[i];  // four loads in flight: none depends on another
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
