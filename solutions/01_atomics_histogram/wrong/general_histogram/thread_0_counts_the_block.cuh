// A wrong answer to exercise 2 (lesson 01): the technique skipped where only the clock shows it.
// Thread 0 of each block reads and counts every value its block's threads would have read; the
// counters are still zeroed and merged by the whole block, so the counts and the atomics are all
// what the probe wants. But one thread now waits on a block's worth of loads where the model
// answer's threads wait on one each: several times the model answer's time.
// expect: slow
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
  if (threadIdx.x == 0) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x); first < n;
         first += stride) {
      for (unsigned t = 0; t < blockDim.x && first + t < n; ++t) {
        const unsigned v = values[first + t];
        if (v < num_bins) atomicAdd(&counts[v], 1u);
      }
    }
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x) {
    if (counts[b] != 0) atomicAdd(&bins[b], static_cast<unsigned long long>(counts[b]));
  }
}

}  // namespace exercise01
