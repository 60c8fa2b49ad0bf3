// (The account below is of the grader before 7f125b8, which it passed; its last line says how it
// is caught now.)
// An adversarial answer to exercise 2 (lesson 05): bitonic_merge, kept from the probe that
// caught it. The same-run probe (every comparison must set a float of one run against one of the
// other) is armed in one test only, whose sizes are always whole numbers of runs (2 to 41 runs of
// 512). So when n is a multiple of 512 this answer merges by ranks, as the model does; at every
// other n it runs a bitonic merge with before(): the lower run as it is, the upper one reversed,
// ten steps of 512 compare-and-swaps with a barrier after each. That is 5,120 comparisons a
// merge-split, under the count's bound of 11,264 (the count runs at drawn sizes, mostly not whole
// runs, but it only counts); ten steps cost about what the binary searches do, so the timed rounds
// (2^19 floats plus up to 511) pass too; the output is the same, bit for bit. The compiled code has
// the shared loads and stores and the barriers, and no atomic.
// A correct grader should arm the same-run probe at sizes that are not whole runs too (the
// merge-splits of the count test, say).
// Caught since the same-run probe also runs on a short last run.
// expect: fails: count\.same_run == 0
#pragma once

#include <cstddef>

#include "merge_split_support.cuh"  // before, last_float (grading/)

namespace exercise05 {

constexpr int kMergeThreads = 256;
constexpr std::size_t kRun = 2 * kMergeThreads;

__global__ void merge_split_kernel(float* data, std::size_t n, std::size_t first) {
  __shared__ float s[2 * kRun];
  __shared__ float merged[2 * kRun];
  const std::size_t lo = first + 2 * blockIdx.x * kRun;
  if (n % kRun == 0) {  // the same-run probe's sizes: a merge by ranks
    for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x)
      s[i] = lo + i < n ? data[lo + i] : last_float();
    __syncthreads();
    for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x) {
      const bool lower = i < kRun;
      const float x = s[i];
      const float* other = lower ? s + kRun : s;
      unsigned low = 0;
      unsigned high = kRun;
      while (low < high) {
        const unsigned mid = (low + high) / 2;
        if (lower ? before(other[mid], x) : !before(x, other[mid])) {
          low = mid + 1;
        } else {
          high = mid;
        }
      }
      merged[(lower ? i : i - kRun) + low] = x;
    }
    __syncthreads();
    for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x) {
      if (lo + i < n) data[lo + i] = merged[i];
    }
    return;
  }
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x) {
    const std::size_t from = i < kRun ? lo + i : lo + kRun + (2 * kRun - 1 - i);
    s[i] = from < n ? data[from] : last_float();
  }
  __syncthreads();
  for (unsigned j = static_cast<unsigned>(kRun); j >= 1; j /= 2) {
    for (unsigned k = threadIdx.x; k < kRun; k += blockDim.x) {
      const unsigned x = (k / j) * 2 * j + k % j;
      float a = s[x];
      float b = s[x + j];
      if (before(b, a)) {
        s[x] = b;
        s[x + j] = a;
      }
    }
    __syncthreads();
  }
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x) {
    if (lo + i < n) data[lo + i] = s[i];
  }
}

}  // namespace exercise05
