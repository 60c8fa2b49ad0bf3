// A wrong answer to exercise 2 (lesson 05): v3's segment sort again, hidden from the count. The two
// runs are sorted from scratch by odd-even transposition in shared memory, comparing the floats
// with an order of its own (totalOrder written out on the bits) instead of before(), which it calls
// once a block so that the count is not zero. The result is right under the course's order (not
// under the tests' scrambled ones) and the count is low; 1024 phases with a barrier each take many
// times as long as a merge.
// expect: slow
#pragma once

#include <cstddef>
#include <cstdint>

#include "merge_split_support.cuh"

namespace exercise05 {

constexpr int kMergeThreads = 256;
constexpr std::size_t kRun = 2 * kMergeThreads;

// totalOrder's key of a float: every bit flipped for a negative one, the sign bit for the others.
__device__ inline std::uint32_t own_key(float f) {
  const std::uint32_t bits = __float_as_uint(f);
  return (bits & 0x80000000u) != 0 ? ~bits : bits | 0x80000000u;
}

__global__ void merge_split_kernel(float* data, std::size_t n, std::size_t first) {
  __shared__ float s[2 * kRun];
  const std::size_t lo = first + 2 * blockIdx.x * kRun;
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x)
    s[i] = lo + i < n ? data[lo + i] : last_float();
  __syncthreads();
  for (unsigned phase = 0; phase < 2 * kRun; ++phase) {
    for (unsigned i = 2 * threadIdx.x + (phase & 1u); i + 1 < 2 * kRun; i += 2 * blockDim.x) {
      if (own_key(s[i + 1]) < own_key(s[i])) {
        const float t = s[i];
        s[i] = s[i + 1];
        s[i + 1] = t;
      }
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) (void)before(s[0], s[1]);  // one comparison, for the count
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x) {
    if (lo + i < n) data[lo + i] = s[i];
  }
}

}  // namespace exercise05
