// A wrong answer to exercise 2 (lesson 01): every value an atomicAdd on the global histogram, no
// shared counters at all. The counts are right; the technique is skipped.
// expect: fails: shared-memory atomicAdd calls: 0;
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr unsigned kMaxBins = 4096;

__global__ void general_histogram_kernel(const std::uint16_t* values, std::size_t n,
                                         unsigned num_bins, unsigned long long* bins) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    if (values[i] < num_bins) atomicAdd(&bins[values[i]], 1ull);
  }
}

}  // namespace exercise01
