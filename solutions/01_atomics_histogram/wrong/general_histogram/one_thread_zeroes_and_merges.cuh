// A wrong answer to exercise 2 (lesson 01): thread 0 zeroes and merges all num_bins counters of
// its block in loops of its own, so the loops that step by blockDim.x (the point of "any block
// size") are skipped. The counts are right, the atomics land where the probe's totals want them,
// and the time hardly differs: one thread's 4,096 stores and 4,096 merges cost each block a few
// tens of microseconds, against the milliseconds the counting takes at the timing's size.
// Caught: the probe counts each thread's global adds, and the tests ask that no thread merge more
// than its share of the bins, num_bins / blockDim.x rounded up.
// expect: fails: the most global atomicAdd calls one thread made
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr unsigned kMaxBins = 4096;

__global__ void general_histogram_kernel(const std::uint16_t* values, std::size_t n,
                                         unsigned num_bins, unsigned long long* bins) {
  extern __shared__ unsigned int counts[];
  if (threadIdx.x == 0) {
    for (unsigned b = 0; b < num_bins; ++b)
      counts[b] = 0;
  }
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    if (values[i] < num_bins) atomicAdd(&counts[values[i]], 1u);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (unsigned b = 0; b < num_bins; ++b) {
      if (counts[b] != 0) atomicAdd(&bins[b], static_cast<unsigned long long>(counts[b]));
    }
  }
}

}  // namespace exercise01
