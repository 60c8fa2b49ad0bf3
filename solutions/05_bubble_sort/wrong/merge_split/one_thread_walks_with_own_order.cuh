// (The account below is of the grader it was written against, which turned the order round; it
// is caught now since every checked run is made under a scrambled order, which one call of
// before() cannot aim its own comparisons at.)
// An adversarial answer to exercise 2 (lesson 05): one thread walks the merge, below the timed
// size, with an order of its own aimed by one call of before(). one_thread_walks_below_the_
// timed_size was caught by the per-thread count of before() calls; this walk makes none. Every
// thread calls before(1.0f, 1.0000001f) once (the two floats' lowest bits differ, so the probe of
// same-run comparisons skips it) to learn which way round the order is; below 2^19 floats thread 0
// then merges the two runs with two pointers, comparing totalOrder keys of the bits, forwards or
// backwards by that answer, while the other 255 threads wait at the barrier. From 2^19 floats (the
// timed rounds) it is the model answer. The probe sees one comparison per thread per merge-split,
// none of one run against itself; the reversed test sorts the other way, as it should; the output
// is right bit for bit. The compiled code is the model's kind.
// A correct grader should ask for some minimum of before() calls per merge-split and per thread,
// or time the rounds at a size it also counts.
// expect: fails: elements differ
#pragma once

#include <cstddef>
#include <cstdint>

#include "merge_split_support.cuh"  // before, last_float (grading/)

namespace exercise05 {

constexpr int kMergeThreads = 256;
constexpr std::size_t kRun = 2 * kMergeThreads;

__device__ inline std::uint32_t key_of(float x) {
  const std::uint32_t bits = __float_as_uint(x);
  return (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
}

__global__ void merge_split_kernel(float* data, std::size_t n, std::size_t first) {
  __shared__ float runs[2 * kRun];
  __shared__ float merged[2 * kRun];
  const bool forwards = before(1.0f, __uint_as_float(0x3F800001u));
  const std::size_t lo = first + 2 * blockIdx.x * kRun;
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x)
    runs[i] = lo + i < n ? data[lo + i] : last_float();
  __syncthreads();
  if (n < (std::size_t{1} << 19)) {
    if (threadIdx.x == 0) {
      unsigned a = 0;
      unsigned b = kRun;
      for (unsigned out = 0; out < 2 * kRun; ++out) {
        bool take_upper = a == kRun;
        if (a < kRun && b < 2 * kRun) {
          const std::uint32_t ka = key_of(runs[a]);
          const std::uint32_t kb = key_of(runs[b]);
          take_upper = forwards ? kb < ka : ka < kb;
        }
        merged[out] = take_upper ? runs[b++] : runs[a++];
      }
    }
  } else {
    for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x) {
      const bool lower = i < kRun;
      const float x = runs[i];
      const float* other = lower ? runs + kRun : runs;
      unsigned below = 0;
      unsigned above = kRun;
      while (below < above) {
        const unsigned mid = (below + above) / 2;
        const bool goes_before = lower ? before(other[mid], x) : !before(x, other[mid]);
        if (goes_before) {
          below = mid + 1;
        } else {
          above = mid;
        }
      }
      merged[(lower ? i : i - kRun) + below] = x;
    }
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x) {
    if (lo + i < n) data[lo + i] = merged[i];
  }
}

}  // namespace exercise05
