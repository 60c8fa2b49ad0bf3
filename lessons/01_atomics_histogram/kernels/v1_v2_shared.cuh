// v1 and v2: the source's second program, a private histogram per block in shared memory, merged
// into 32-bit (v1) or 64-bit (v2) global counters.
#pragma once

#include <cstddef>
#include <cstdint>

#include "launch.hpp"
#include "settings.cuh"

namespace lesson01 {

// v1 a private histogram per block in shared memory (the source's second program): each block
// counts into its own 256 shared counters, then adds each to global memory once (v0: every byte
// went to global memory). v2 is the same kernel with 64-bit global counters.
// Requires blockDim.x == kBins: thread t zeroes and merges bin t.
template <typename Counter>
__global__ void shared_histogram_kernel(const std::uint8_t* data, std::size_t n, Counter* bins) {
  __shared__ unsigned int block_bins[kBins];
  block_bins[threadIdx.x] = 0;
  __syncthreads();  // every counter is zero before any thread counts
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    atomicAdd(&block_bins[data[i]], 1u);
  }
  __syncthreads();  // every count is in before the merge reads it
  atomicAdd(&bins[threadIdx.x], static_cast<Counter>(block_bins[threadIdx.x]));
}

inline void histogram_shared(const std::uint8_t* data, std::size_t n, unsigned int* bins,
                             Launch launch = {}) {
  launch_counting(shared_histogram_kernel<unsigned int>, source_grid(), kSourceThreads, data, n,
                  bins, launch);
}

// v2 64-bit global counters: exact past 2^32 bytes of one value, where v1's 32-bit bins wrap.
// Only the merge touches them (256 atomics per block), so the wider type costs nothing. A
// block's own shared counters stay 32-bit: requires fewer than 2^32 bytes per block.
inline void histogram_wide_bins(const std::uint8_t* data, std::size_t n, unsigned long long* bins,
                                Launch launch = {}) {
  launch_counting(shared_histogram_kernel<unsigned long long>, source_grid(), kSourceThreads, data,
                  n, bins, launch);
}

}  // namespace lesson01
