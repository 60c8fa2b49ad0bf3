// Exercise 1 (lesson 01): a private histogram per block in shared memory, the seed's second
// program. Write the kernel; the host function that launches it is given.
#pragma once

#include <cstddef>
#include <cstdint>

#include "check.hpp"
#include "launch.hpp"

namespace exercise01 {

constexpr int kBins = 256;
constexpr int kThreads = 256;  // one thread per bin: thread t zeroes and merges bin t

// Counts the n bytes at data into bins[0..255]. Launched with kThreads threads per block;
// bins is zeroed before the launch.
__global__ void shared_histogram_kernel(const std::uint8_t* data, std::size_t n,
                                        unsigned long long* bins) {
  __shared__ unsigned int counts[kBins];
  counts[threadIdx.x] = 0;
  __syncthreads();  // no thread may count into a counter that is not zeroed yet
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    atomicAdd(&counts[data[i]], 1u);
  }
  __syncthreads();  // every count of the block is in before it is merged
  atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(counts[threadIdx.x]));
}

// Counts the n bytes at d_data (device memory) into d_bins[0..255] (device memory).
inline void histogram_shared(const std::uint8_t* d_data, std::size_t n,
                             unsigned long long* d_bins) {
  CUDA_CHECK(cudaMemset(d_bins, 0, kBins * sizeof(unsigned long long)));
  shared_histogram_kernel<<<2 * course::sm_count(), kThreads>>>(d_data, n, d_bins);
  CUDA_CHECK_LAUNCH();
}

}  // namespace exercise01
