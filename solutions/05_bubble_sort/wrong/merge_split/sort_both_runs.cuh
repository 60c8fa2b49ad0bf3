// A wrong answer to exercise 2 (lesson 05): the lesson's own segment sort, copied: the two runs are
// sorted again from scratch by odd-even transposition in shared memory, as v3 does, instead of
// merged. The result is right; the comparisons are hundreds of times a merge's.
// expect: fails: CHECK\( count\.comparisons <= most \* count\.merges \)
#pragma once

#include <cstddef>

#include "merge_split_support.cuh"

namespace exercise05 {

constexpr int kMergeThreads = 256;
constexpr std::size_t kRun = 2 * kMergeThreads;

__global__ void merge_split_kernel(float* data, std::size_t n, std::size_t first) {
  __shared__ float s[2 * kRun];
  const std::size_t lo = first + 2 * blockIdx.x * kRun;
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x)
    s[i] = lo + i < n ? data[lo + i] : last_float();
  __syncthreads();
  for (unsigned phase = 0; phase < 2 * kRun; ++phase) {
    for (unsigned i = 2 * threadIdx.x + (phase & 1u); i + 1 < 2 * kRun; i += 2 * blockDim.x) {
      if (before(s[i + 1], s[i])) {
        const float t = s[i];
        s[i] = s[i + 1];
        s[i + 1] = t;
      }
    }
    __syncthreads();
  }
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x) {
    if (lo + i < n) data[lo + i] = s[i];
  }
}

}  // namespace exercise05
