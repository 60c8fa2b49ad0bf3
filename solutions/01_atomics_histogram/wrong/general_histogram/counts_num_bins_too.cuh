// A wrong answer to exercise 2 (lesson 01): an off-by-one, values <= num_bins counted, so the value
// num_bins goes into a counter past the end of the shared array. The merge never reads it, so
// the histogram can still come out right; the probe counts the extra atomics (or the GPU reports
// the access out of bounds).
// expect: fails: (shared-memory atomicAdd calls|cudaError)
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
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    if (values[i] <= num_bins) atomicAdd(&counts[values[i]], 1u);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x) {
    if (counts[b] != 0) atomicAdd(&bins[b], static_cast<unsigned long long>(counts[b]));
  }
}

}  // namespace exercise01
