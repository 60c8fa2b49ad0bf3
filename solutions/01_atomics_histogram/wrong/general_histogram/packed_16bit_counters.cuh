// A wrong answer to exercise 2 (lesson 01): two 16-bit counters to a 32-bit word, in half the
// shared memory the harness gives. Every counted value is still one shared-memory atomicAdd (of
// 1 << 16 for an odd value), so the probe is content; but a block that counts more than 65,535 of
// one value carries into its neighbour's counter, or out of the word. The tests used to count a
// few thousand of a value per block; now every block counts more than 65,535 of one.
// expect: fails: every block counts more than 65,535 of one value
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr unsigned kMaxBins = 4096;

__global__ void general_histogram_kernel(const std::uint16_t* values, std::size_t n,
                                         unsigned num_bins, unsigned long long* bins) {
  extern __shared__ unsigned int pairs[];  // bin b: half b % 2 of word b / 2
  const unsigned words = (num_bins + 1) / 2;
  for (unsigned w = threadIdx.x; w < words; w += blockDim.x)
    pairs[w] = 0;
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    const unsigned v = values[i];
    if (v < num_bins) atomicAdd(&pairs[v / 2], 1u << (16 * (v % 2)));
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x) {
    const unsigned count = (pairs[b / 2] >> (16 * (b % 2))) & 0xFFFFu;
    if (count != 0) atomicAdd(&bins[b], static_cast<unsigned long long>(count));
  }
}

}  // namespace exercise01
