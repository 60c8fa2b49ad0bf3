// A wrong answer to exercise 2 (lesson 01): a bug the old inputs never reached. The value is read
// into a short and compared with the bin count as an int, so a value past 32,767 is negative,
// passes the test, and is counted below the start of the shared counters. The tests' values used
// to stay below 5,000; now some span the whole 16-bit range.
// expect: fails: (elements differ|shared-memory atomicAdd calls|cudaError)
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr unsigned kMaxBins = 4096;

__global__ void general_histogram_kernel(const std::uint16_t* values, std::size_t n,
                                         unsigned num_bins, unsigned long long* bins) {
  extern __shared__ unsigned int counts[];
  const int bins_here = static_cast<int>(num_bins);
  for (int b = threadIdx.x; b < bins_here; b += blockDim.x)
    counts[b] = 0;
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    const short v = static_cast<short>(values[i]);
    if (v < bins_here) atomicAdd(&counts[v], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < bins_here; b += blockDim.x) {
    if (counts[b] != 0) atomicAdd(&bins[b], static_cast<unsigned long long>(counts[b]));
  }
}

}  // namespace exercise01
