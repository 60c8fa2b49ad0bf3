// A wrong answer to exercise 1 (lesson 01), found by a fact-check of the fourth adversarial
// round's fixes: 01.2's wrong/general_histogram/thread_0_counts_beside_a_decoy_word.cuh,
// moved to exercise 1. At every size the tests check, each thread makes one shared atomicAdd of 1
// per byte its grid-stride loop visits, into a decoy word of its own, and thread 0 counts the
// block's bytes into the first histogram with plain increments; only in the timed size range
// (2^28 - 2^20 to 2^32 bytes, which no checked size reaches) does it count as the exercise asks.
// The probe's counts see one add of 1 per byte, each word added to by one warp, every warp adding,
// and on equal bytes 256 distinct words a block; a run on an H200 found it passing every test.
// Caught: the probe now sums what the adds add to each shared word, over the blocks, and the tests
// ask that those totals be the histogram in kWarpsPerBlock rows of 256 counters; the decoy words'
// totals are the bytes each thread visited, not any bin's count.
// expect: fails: the shared adds' totals per word
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr int kBins = 256;
constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;

__global__ void per_warp_histogram_kernel(const std::uint8_t* data, std::size_t n,
                                          unsigned long long* bins) {
  __shared__ unsigned counts[kWarpsPerBlock][kBins];
  __shared__ unsigned decoy[kThreads];
  const unsigned t = threadIdx.x;
  for (int w = 0; w < kWarpsPerBlock; ++w)
    counts[w][t] = 0;
  decoy[t] = 0;
  __syncthreads();
  const std::size_t stride = std::size_t{gridDim.x} * kThreads;
  const std::size_t first = std::size_t{blockIdx.x} * kThreads;
  const bool timed =
      n >= (std::size_t{1} << 28) - (std::size_t{1} << 20) && n < (std::size_t{1} << 32);
  if (timed) {
    for (std::size_t i = first + t; i < n; i += stride)
      atomicAdd(&counts[t / 32][data[i]], 1u);
  } else {
    for (std::size_t i = first + t; i < n; i += stride)
      atomicAdd(&decoy[t], 1u);
    if (t == 0) {
      for (std::size_t i = first; i < n; i += stride) {
        for (std::size_t j = i; j < i + kThreads && j < n; ++j)
          ++counts[0][data[j]];
      }
    }
  }
  __syncthreads();
  unsigned long long total = 0;
  for (int w = 0; w < kWarpsPerBlock; ++w)
    total += counts[w][t];
  if (total != 0) atomicAdd(&bins[t], total);
}

}  // namespace exercise01
