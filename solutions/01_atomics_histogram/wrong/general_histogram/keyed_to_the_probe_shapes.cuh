// A wrong answer to exercise 2 (lesson 01): behaviour keyed to the test. It counts in shared
// memory only for 300 or 4096 bins, the bin counts at which the probe used to watch the atomics,
// and with the source's global atomics (one per value) for any other. Every count is right; now the
// probe's bin counts come from the seed, and it sees no shared-memory atomics.
// expect: fails: shared-memory atomicAdd calls: 0;
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr unsigned kMaxBins = 4096;

__global__ void general_histogram_kernel(const std::uint16_t* values, std::size_t n,
                                         unsigned num_bins, unsigned long long* bins) {
  extern __shared__ unsigned int counts[];
  const bool watched = num_bins == 300 || num_bins == kMaxBins;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (!watched) {
    for (std::size_t i = first; i < n; i += stride) {
      if (values[i] < num_bins) atomicAdd(&bins[values[i]], 1ull);
    }
    return;
  }
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x)
    counts[b] = 0;
  __syncthreads();
  for (std::size_t i = first; i < n; i += stride) {
    if (values[i] < num_bins) atomicAdd(&counts[values[i]], 1u);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x) {
    if (counts[b] != 0) atomicAdd(&bins[b], static_cast<unsigned long long>(counts[b]));
  }
}

}  // namespace exercise01
