// Exercise 2 (lesson 01): the shared-memory histogram for any block size and any number of bins
// up to 4096. Write the kernel; the harness launches it with two blocks per SM, with the block size
// the tests choose and num_bins counters of dynamic shared memory, on a zeroed `bins`.
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
  // TODO: the source's shared-memory histogram, generalised:
  //   - the counters are dynamic shared memory: extern __shared__ unsigned int counts[];
  //     (num_bins of them; the launch sizes it);
  //   - blockDim.x may be smaller or larger than num_bins: zero and merge the counters in loops
  //     that step by blockDim.x, with a barrier after zeroing and one before merging;
  //   - count each value below num_bins with one shared-memory atomicAdd, and merge each nonzero
  //     counter with one global atomicAdd.
  (void)values;
  (void)n;
  (void)num_bins;
  (void)bins;
}

}  // namespace exercise01
