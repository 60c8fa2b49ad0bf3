// Exercise 3 (lesson 01): warp-aggregated increments. Write warp_aggregated_increment; the
// histogram that uses it is given.
#pragma once

#include <cstddef>
#include <cstdint>

#include "check.hpp"
#include "launch.hpp"

namespace exercise01 {

// Called by the active lanes of a warp together, each with its own bin. For each distinct bin
// among them, exactly one of the lanes holding it calls add(bin, count), where count is the
// number of active lanes holding it. So the warp makes one add per distinct bin, not one per lane.
template <typename Add>
__device__ void warp_aggregated_increment(unsigned int bin, Add add) {
  // TODO: aggregate the warp's increments:
  //   1. the mask of the lanes running this call together: __activemask();
  //   2. among them, the lanes holding the same bin as this one: __match_any_sync(mask, bin);
  //   3. the lowest of those lanes (__ffs gives the 1-based position of the lowest set bit)
  //      calls add(bin, number of those lanes), which __popc counts.
  (void)bin;
  (void)add;
}

constexpr int kAggregatedBins = 256;
constexpr int kAggregatedThreads = 256;

// Exercise 1's histogram, with every shared-memory increment aggregated across the warp.
__global__ void warp_aggregated_histogram_kernel(const std::uint8_t* data, std::size_t n,
                                                 unsigned long long* bins) {
  __shared__ unsigned int counts[kAggregatedBins];
  counts[threadIdx.x] = 0;
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    warp_aggregated_increment(
        data[i], [&](unsigned int bin, unsigned int count) { atomicAdd(&counts[bin], count); });
  }
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(counts[threadIdx.x]));
}

// Counts the n bytes at d_data (device memory) into d_bins[0..255] (device memory).
inline void histogram_warp_aggregated(const std::uint8_t* d_data, std::size_t n,
                                      unsigned long long* d_bins) {
  CUDA_CHECK(cudaMemset(d_bins, 0, kAggregatedBins * sizeof(unsigned long long)));
  warp_aggregated_histogram_kernel<<<2 * course::sm_count(), kAggregatedThreads>>>(d_data, n,
                                                                                   d_bins);
  CUDA_CHECK_LAUNCH();
}

}  // namespace exercise01
