// Exercise 2 (lesson 01): the shared-memory histogram for any block size and any number of bins
// up to 4096. Write the kernel; the host function that launches it is given.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "check.hpp"
#include "launch.hpp"

namespace exercise01 {

constexpr unsigned kMaxBins = 4096;  // 16 KiB of shared counters

// Counts values[i] into bins[values[i]] for the values below num_bins; larger values are not
// counted (as in CUB's HistogramEven). Any blockDim.x; the block's num_bins shared counters are
// the dynamic shared memory of the launch; bins is zeroed before the launch.
__global__ void general_histogram_kernel(const std::uint16_t* values, std::size_t n,
                                         unsigned num_bins, unsigned long long* bins) {
  // TODO: the kernel of exercise 1, generalised:
  //   - the counters are dynamic shared memory: extern __shared__ unsigned int counts[];
  //     (num_bins of them; the launch below sizes it);
  //   - blockDim.x may be smaller or larger than num_bins: zero and merge the counters in loops
  //     that step by blockDim.x, with a barrier after zeroing and one before merging;
  //   - count only the values below num_bins.
  (void)values;
  (void)n;
  (void)num_bins;
  (void)bins;
}

// Counts the n values at d_values (device memory) below num_bins into d_bins[0..num_bins-1]
// (device memory), with threads_per_block threads per block. Throws std::invalid_argument for
// num_bins outside 1..4096 or threads_per_block outside 1..1024.
inline void histogram_general(const std::uint16_t* d_values, std::size_t n, unsigned num_bins,
                              int threads_per_block, unsigned long long* d_bins) {
  if (num_bins < 1 || num_bins > kMaxBins) {
    throw std::invalid_argument("histogram_general: num_bins must be 1..4096");
  }
  if (threads_per_block < 1 || threads_per_block > 1024) {
    throw std::invalid_argument("histogram_general: threads_per_block must be 1..1024");
  }
  CUDA_CHECK(cudaMemset(d_bins, 0, num_bins * sizeof(unsigned long long)));
  general_histogram_kernel<<<2 * course::sm_count(), threads_per_block,
                             num_bins * sizeof(unsigned int)>>>(d_values, n, num_bins, d_bins);
  CUDA_CHECK_LAUNCH();
}

}  // namespace exercise01
