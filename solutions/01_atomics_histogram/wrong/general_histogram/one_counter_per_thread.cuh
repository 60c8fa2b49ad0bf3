// A wrong answer to exercise 2 (lesson 01): thread t zeroes and merges counter t only, as in the
// source's kernel, which assumed one thread per bin. Right when the block has at least num_bins
// threads; wrong at the awkward sizes, where the counters past blockDim.x are never zeroed or
// merged.
// expect: fails: elements differ
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr unsigned kMaxBins = 4096;

__global__ void general_histogram_kernel(const std::uint16_t* values, std::size_t n,
                                         unsigned num_bins, unsigned long long* bins) {
  extern __shared__ unsigned int counts[];
  if (threadIdx.x < num_bins) counts[threadIdx.x] = 0;
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    if (values[i] < num_bins) atomicAdd(&counts[values[i]], 1u);
  }
  __syncthreads();
  if (threadIdx.x < num_bins && counts[threadIdx.x] != 0) {
    atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(counts[threadIdx.x]));
  }
}

}  // namespace exercise01
