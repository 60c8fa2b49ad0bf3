// A wrong answer to exercise 1 (lesson 02): a bug the old inputs never reached. The index is an
// unsigned int, as in Harris's slides (unsigned int i = blockIdx.x * (blockDim.x * 2) + tid), so
// past 2^32 elements it wraps, and the last blocks add elements from the start of the input. The
// tests' inputs used to stay below 2^25 elements; now one passes 2^32 (on a GPU with 18 GB free).
// expect: fails: elements past 2\^32
#pragma once

#include <cstddef>

namespace exercise02 {

constexpr int kFirstAddThreads = 256;
constexpr int kLoadsPerThread = 4;

template <typename T>
__global__ void first_add_kernel(const T* in, std::size_t n, T* block_sums) {
  __shared__ T cache[kFirstAddThreads];
  const unsigned int tid = threadIdx.x;
  const unsigned int first = blockIdx.x * (kLoadsPerThread * blockDim.x) + tid;
  T sum = T(0);
  for (int j = 0; j < kLoadsPerThread; ++j) {
    const unsigned int i = first + j * blockDim.x;
    if (i < n) sum += in[i];
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
