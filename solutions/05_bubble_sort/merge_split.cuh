// Exercise 2 (lesson 05), solved: every float finds its place in the merge by a binary search in
// the other run.
#pragma once

#include <cstddef>

#include "merge_split_support.cuh"  // before, last_float (grading/)

namespace exercise05 {

constexpr int kMergeThreads = 256;
constexpr std::size_t kRun = 2 * kMergeThreads;

// Block b merges the two sorted runs that start at lo = first + 2 b kRun: the lower one,
// data[lo, lo + kRun), and the upper one, data[lo + kRun, lo + 2 kRun). Places at n or past it
// count as last_float() and are never written. Afterwards the lower run holds the kRun smallest
// of the 2 kRun floats and the upper one the kRun largest, both sorted. blockDim.x ==
// kMergeThreads. Compare floats only with before().
__global__ void merge_split_kernel(float* data, std::size_t n, std::size_t first) {
  __shared__ float runs[2 * kRun];  // the lower run, then the upper one
  __shared__ float merged[2 * kRun];
  const std::size_t lo = first + 2 * blockIdx.x * kRun;
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x)
    runs[i] = lo + i < n ? data[lo + i] : last_float();
  __syncthreads();  // both runs are loaded before any thread searches them
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x) {
    const bool lower = i < kRun;
    const float x = runs[i];
    const float* other = lower ? runs + kRun : runs;
    // How many floats of the other run go before x: those before it, and, for a float of the
    // upper run, the lower run's equal ones too.
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
  __syncthreads();  // every float is in its place before any is stored
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x) {
    if (lo + i < n) data[lo + i] = merged[i];
  }
}

}  // namespace exercise05
