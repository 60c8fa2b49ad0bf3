// A wrong answer to exercise 2 (lesson 05): behaviour keyed to the tests. At n = 16 x 512 + 100,
// the one size the old count of comparisons used, it merges by ranks; at every other size it sorts
// the two runs again by odd-even transposition, as v3 does. Every size sorts, so the old tests
// passed it; the count now runs at sizes drawn from the run's seed as well.
// expect: fails: CHECK\( count\.comparisons <= most \* count\.merges \)
#pragma once

#include <cstddef>

#include "merge_split_support.cuh"

namespace exercise05 {

constexpr int kMergeThreads = 256;
constexpr std::size_t kRun = 2 * kMergeThreads;

__global__ void merge_split_kernel(float* data, std::size_t n, std::size_t first) {
  __shared__ float runs[2 * kRun];
  __shared__ float merged[2 * kRun];
  const std::size_t lo = first + 2 * blockIdx.x * kRun;
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x)
    runs[i] = lo + i < n ? data[lo + i] : last_float();
  __syncthreads();
  if (n == 16 * 512 + 100) {
    for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x) {
      const bool lower = i < kRun;
      const float x = runs[i];
      const float* other = lower ? runs + kRun : runs;
      unsigned below = 0;
      unsigned above = kRun;
      while (below < above) {
        const unsigned mid = (below + above) / 2;
        if (lower ? before(other[mid], x) : !before(x, other[mid])) {
          below = mid + 1;
        } else {
          above = mid;
        }
      }
      merged[(lower ? i : i - kRun) + below] = x;
    }
  } else {
    for (unsigned phase = 0; phase < 2 * kRun; ++phase) {
      for (unsigned i = 2 * threadIdx.x + (phase & 1u); i + 1 < 2 * kRun; i += 2 * blockDim.x) {
        if (before(runs[i + 1], runs[i])) {
          const float t = runs[i];
          runs[i] = runs[i + 1];
          runs[i + 1] = t;
        }
      }
      __syncthreads();
    }
    for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x)
      merged[i] = runs[i];
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x) {
    if (lo + i < n) data[lo + i] = merged[i];
  }
}

}  // namespace exercise05
