// (The account below is of the grader before 7f125b8, which it passed; its last line says how it
// is caught now.)
// An adversarial answer to exercise 2 (lesson 05): one_thread_merges, kept from the clock that
// caught it. Below 2^19 floats, thread 0 of each block merges the two runs with two pointers (up
// to 1,024 steps in a row) while the other 255 threads wait at the barrier; at 2^19 floats and
// more (the timed rounds are 2^19 plus up to 511), the block merges by ranks as the model does.
// Only the clock was to catch the walk: it compares fewer times than a merge by ranks (one
// comparison a place, under the count's bound), and every comparison sets the head of one run
// against the head of the other, so the same-run probe sees nothing; the output is right bit for
// bit. Every size the other tests sort (300,000 at most) is below 2^19. The compiled code has the
// shared loads and stores and the barriers, and no atomic.
// A correct grader should time the rounds at a size drawn from the seed, or at two sizes, or see
// that the merge's comparisons are made by one thread.
// Caught since the probe counts each thread number's comparisons.
// expect: fails: comparisons by one thread number
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
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x)
    s[i] = lo + i < n ? data[lo + i] : last_float();
  __syncthreads();
  if (n < (std::size_t{1} << 19)) {
    if (threadIdx.x == 0) {
      unsigned a = 0;     // next of the lower run
      unsigned b = kRun;  // next of the upper run
      for (unsigned out = 0; out < 2 * kRun; ++out) {
        // Ties: the lower run's float first.
        const bool take_lower = b == 2 * kRun || (a < kRun && !before(s[b], s[a]));
        merged[out] = take_lower ? s[a++] : s[b++];
      }
    }
  } else {
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
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x) {
    if (lo + i < n) data[lo + i] = merged[i];
  }
}

}  // namespace exercise05
