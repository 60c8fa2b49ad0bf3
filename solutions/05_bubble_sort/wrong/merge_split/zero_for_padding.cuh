// A wrong answer to exercise 2 (lesson 05): the places past n hold 0.0f, not the last float, as the
// source's exercise 2 starter did. Whenever n is not a whole number of runs, the zeros sort among
// the values and push real values past n, where they are never stored.
// expect: fails: elements differ
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
    runs[i] = lo + i < n ? data[lo + i] : 0.0f;
  __syncthreads();
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
  __syncthreads();
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x) {
    if (lo + i < n) data[lo + i] = merged[i];
  }
}

}  // namespace exercise05
