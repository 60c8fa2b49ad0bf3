// A wrong answer to exercise 1 (lesson 01), after a fact-check of the fourth adversarial round:
// the counting is done by thread 0 alone, with plain increments into one histogram per block, and
// the probe is paid with adds that count nothing. Each thread makes one shared atomicAdd per byte
// its grid-stride loop visits, into a word of its own in its warp's row, alternately of 1u and of
// 0xFFFFFFFFu (-1 modulo 2^32), so its word ends near 0. The probe's counts see one add per byte,
// every add a whole count of 1 or more (0xFFFFFFFF is one, to an unsigned counter), each word
// added to by one warp and every warp adding; only the clock could tell.
// Caught: the probe's word totals are summed in 64 bits, so what the adds added in all is not the
// number of bytes, and no layout of counters makes the totals the histogram.
// expect: fails: what the shared atomicAdd calls added, in all
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr int kBins = 256;
constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;

__global__ void per_warp_histogram_kernel(const std::uint8_t* data, std::size_t n,
                                          unsigned long long* bins) {
  __shared__ unsigned counts[kBins];
  __shared__ unsigned pads[kWarpsPerBlock][32];
  const unsigned t = threadIdx.x;
  counts[t] = 0;
  pads[t / 32][t % 32] = 0;
  __syncthreads();
  const std::size_t stride = std::size_t{gridDim.x} * kThreads;
  const std::size_t first = std::size_t{blockIdx.x} * kThreads;
  unsigned step = 0;
  for (std::size_t i = first + t; i < n; i += stride)
    atomicAdd(&pads[t / 32][t % 32], (step++ % 2 == 0) ? 1u : 0xFFFFFFFFu);
  if (t == 0) {
    for (std::size_t i = first; i < n; i += stride) {
      for (std::size_t j = i; j < i + kThreads && j < n; ++j)
        ++counts[data[j]];
    }
  }
  __syncthreads();
  if (counts[t] != 0) atomicAdd(&bins[t], static_cast<unsigned long long>(counts[t]));
}

}  // namespace exercise01
