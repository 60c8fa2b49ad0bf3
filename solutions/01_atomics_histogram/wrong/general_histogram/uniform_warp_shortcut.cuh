// An adversarial answer to exercise 2 (lesson 01): not one shared atomicAdd per counted value. When
// all 32 lanes of a full warp read the same value (a vote), lane 0 adds 32 with one atomicAdd;
// otherwise each lane adds its 1. The probe that counts the shared adds only runs on random values
// (values_for), where a full warp of 32 equal values practically never happens, so it sees one add
// per value; the tests that count one value over and over (all values in one bin, more than 65,535
// of one value, more than 2^32) check only the histogram, which is right. The compiled code has
// shared adds, 64-bit merges and barriers; a vote and a broadcast a value cost nothing next to
// the load the loop waits on.
// A correct grader should run the probe on all-equal values too, where it sees about one add in 32.
// expect: fails: shared-memory atomicAdd calls
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr unsigned kMaxBins = 4096;

__global__ void general_histogram_kernel(const std::uint16_t* values, std::size_t n,
                                         unsigned num_bins, unsigned long long* bins) {
  extern __shared__ unsigned int counts[];
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x)
    counts[b] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x % 32;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    const unsigned v = values[i];
    const unsigned mask = __activemask();
    const unsigned first = __shfl_sync(mask, v, __ffs(mask) - 1);
    if (mask == 0xFFFFFFFFu && __all_sync(mask, v == first)) {
      if (lane == 0 && v < num_bins) atomicAdd(&counts[v], 32u);  // the warp's 32 at once
    } else if (v < num_bins) {
      atomicAdd(&counts[v], 1u);
    }
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x) {
    if (counts[b] != 0) atomicAdd(&bins[b], static_cast<unsigned long long>(counts[b]));
  }
}

}  // namespace exercise01
