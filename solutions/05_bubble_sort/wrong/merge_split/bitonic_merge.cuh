// An adversarial answer to exercise 2 (lesson 05): a bitonic merge instead of a merge by ranks.
// The lower run goes into shared memory as it is and the upper run reversed, which makes one
// bitonic sequence of 1024 floats; ten steps of 512 compare-and-swaps (j = 512, 256, ..., 1), each
// with before() and a barrier after it, sort it. That is 5,120 comparisons per merge-split, under
// the tests' bound of 2 kRun (log2 kRun + 2) = 11,264, which was set to let a merge by ranks
// through and stop a re-sort (hundreds of thousands); and ten steps of two compare-and-swaps per
// thread cost about what the binary searches do, so the time bound passes too. The output is the
// same, bit for bit. The exercise asks for ranks found by binary search, writing each float to its
// place in a second array; no test looks at how the comparisons are made.
// expect: fails: count\.same_run == 0
#pragma once

#include <cstddef>

#include "merge_split_support.cuh"

namespace exercise05 {

constexpr int kMergeThreads = 256;
constexpr std::size_t kRun = 2 * kMergeThreads;

__global__ void merge_split_kernel(float* data, std::size_t n, std::size_t first) {
  __shared__ float s[2 * kRun];
  const std::size_t lo = first + 2 * static_cast<std::size_t>(blockIdx.x) * kRun;
  for (unsigned t = threadIdx.x; t < kRun; t += blockDim.x) {
    s[t] = lo + t < n ? data[lo + t] : last_float();
    const std::size_t up = lo + kRun + t;
    s[2 * kRun - 1 - t] = up < n ? data[up] : last_float();
  }
  __syncthreads();
  for (unsigned j = kRun; j > 0; j /= 2) {
    for (unsigned q = threadIdx.x; q < kRun; q += blockDim.x) {
      const unsigned a = ((q & ~(j - 1)) << 1) | (q & (j - 1));
      const unsigned b = a + j;
      const float x = s[a];
      const float y = s[b];
      if (before(y, x)) {
        s[a] = y;
        s[b] = x;
      }
    }
    __syncthreads();
  }
  for (unsigned t = threadIdx.x; t < 2 * kRun; t += blockDim.x) {
    if (lo + t < n) data[lo + t] = s[t];
  }
}

}  // namespace exercise05
