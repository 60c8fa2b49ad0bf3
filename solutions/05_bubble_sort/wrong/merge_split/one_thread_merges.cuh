// A wrong answer to exercise 2 (lesson 05): the technique skipped where only speed shows it. Thread
// 0 of each block merges the two runs with two pointers, 1024 steps in a row, while the other 255
// threads wait at the barrier. The result is right, and it compares fewer times than a merge by
// ranks (one comparison a place), so the count of all comparisons cannot see it (the count by
// thread number can); it takes several times as long.
// expect: slow
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
  if (threadIdx.x == 0) {
    unsigned i = 0;     // the next float of the lower run
    unsigned j = kRun;  // and of the upper one
    for (unsigned o = 0; o < 2 * kRun; ++o) {
      // The upper run's float goes first only when it comes strictly before the lower run's.
      if (j < 2 * kRun && (i >= kRun || before(runs[j], runs[i]))) {
        merged[o] = runs[j++];
      } else {
        merged[o] = runs[i++];
      }
    }
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x) {
    if (lo + i < n) data[lo + i] = merged[i];
  }
}

}  // namespace exercise05
