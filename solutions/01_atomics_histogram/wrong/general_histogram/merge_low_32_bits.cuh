// A wrong answer to exercise 2 (lesson 01): the merge adds each block's count to the low 32 bits
// of its 64-bit bin, with atomicAdd in parentheses, (atomicAdd)(...), which the probe's
// function-like macro of the time did not see, on the bins seen as unsigned int words. A bin past 2^32 loses its
// carry. The inputs used to stay far below 2^32 values, and the probe does not see the merge at
// all (it asks only that global atomics be no more than the merges); the compiled code shows a
// 32-bit global add.
// expect: compiled: a global atomic other than a 64-bit add
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
    if (values[i] < num_bins) atomicAdd(&counts[values[i]], 1u);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x) {
    // The low word of a little-endian 64-bit counter.
    if (counts[b] != 0) (atomicAdd)(reinterpret_cast<unsigned int*>(&bins[b]), counts[b]);
  }
}

}  // namespace exercise01
