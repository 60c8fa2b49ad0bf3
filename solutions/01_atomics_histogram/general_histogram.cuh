// Exercise 2 (lesson 01), solved: shared counters in dynamic shared memory, zeroed and merged by
// loops that step by the block size.
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr unsigned kMaxBins = 4096;  // 16 KiB of shared counters

// Counts values[i] into bins[values[i]] for the values below num_bins; larger values are not
// counted (as in CUB's HistogramEven). Any blockDim.x from 1 to 1024; the block's num_bins shared
// counters are the dynamic shared memory of the launch.
__global__ void general_histogram_kernel(const std::uint16_t* values, std::size_t n,
                                         unsigned num_bins, unsigned long long* bins) {
  extern __shared__ unsigned int counts[];  // num_bins of them
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x)
    counts[b] = 0;
  __syncthreads();  // all zeroed before any thread counts
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    if (values[i] < num_bins) atomicAdd(&counts[values[i]], 1u);
  }
  __syncthreads();  // all counted before the merge
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x) {
    if (counts[b] != 0) atomicAdd(&bins[b], static_cast<unsigned long long>(counts[b]));
  }
}

}  // namespace exercise01
