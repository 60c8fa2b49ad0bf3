// (The account below is of the grader it was written against, which turned the order round; it
// is caught now since every checked run is made under a scrambled order, which one call of
// before() cannot aim its own comparisons at.)
// An adversarial answer to exercise 2 (lesson 05): a bitonic merge (a sorting network over the two
// runs) with an order of its own, aimed by one call of before(). bitonic_merge_with_own_order
// was caught when the tests turned before()'s order round; this one asks before() which way round
// it is: every thread calls before(1.0f, 1.0000001f) once, and its own comparison (totalOrder on
// the bits, as keys) runs forwards or backwards by the answer. The two floats' lowest bits differ,
// so the probe of same-run comparisons does not count that call, and the network's comparisons
// are not before()'s, so the probe sees none of them: 256 comparisons a merge-split, one a thread,
// none of one run against itself. Pads with last_float(). The reversed test sorts the other way,
// as it should; the output is right bit for bit; ten stages of 512 compare-exchanges in shared
// memory are no slower than the model's binary searches. The compiled code loads and stores shared
// memory, has barriers and no atomic.
// A correct grader should ask for some minimum of before() calls per merge-split (a merge by
// ranks makes about 2 kRun log2(kRun)), or check that the comparisons it counts could place the
// floats.
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
  __shared__ float
      keys[2 * kRun];  // the lower run, then the upper one reversed: a bitonic sequence
  // Which way round the order is: before() of a float and the next one up.
  const bool forwards = before(1.0f, __uint_as_float(0x3F800001u));
  const std::size_t lo = first + 2 * blockIdx.x * kRun;
  for (unsigned i = threadIdx.x; i < kRun; i += blockDim.x) {
    keys[i] = lo + i < n ? data[lo + i] : last_float();
    keys[2 * kRun - 1 - i] = lo + kRun + i < n ? data[lo + kRun + i] : last_float();
  }
  __syncthreads();
  for (unsigned stride = kRun; stride > 0; stride /= 2) {
    for (unsigned t = threadIdx.x; t < kRun; t += blockDim.x) {
      const unsigned a = (t / stride) * 2 * stride + t % stride;
      const unsigned b = a + stride;
      const float x = keys[a];
      const float y = keys[b];
      const bool swap = forwards ? key_of(y) < key_of(x) : key_of(x) < key_of(y);
      if (swap) {
        keys[a] = y;
        keys[b] = x;
      }
    }
    __syncthreads();
  }
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x) {
    if (lo + i < n) data[lo + i] = keys[i];
  }
}

}  // namespace exercise05
