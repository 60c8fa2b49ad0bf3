// A wrong answer to exercise 1 (lesson 01): the lesson's own v1, copied, with one histogram per
// block instead of one per warp. The counts are right; the exercise's step is not taken.
// expect: fails: one histogram per warp
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr int kBins = 256;
constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;

__global__ void per_warp_histogram_kernel(const std::uint8_t* data, std::size_t n,
                                          unsigned long long* bins) {
  __shared__ unsigned int counts[kBins];
  counts[threadIdx.x] = 0;
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    atomicAdd(&counts[data[i]], 1u);
  }
  __syncthreads();
  if (counts[threadIdx.x] != 0) {
    atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(counts[threadIdx.x]));
  }
}

}  // namespace exercise01
