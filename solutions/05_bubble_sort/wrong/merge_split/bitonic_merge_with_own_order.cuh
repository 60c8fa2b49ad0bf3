// (The account below is of the grader before 7f125b8, which it passed; its last line says how it
// is caught now.)
// An adversarial answer to exercise 2 (lesson 05): a bitonic merge, not a merge by ranks, with its
// comparisons made in an order of its own so that neither probe sees them. The lower run is loaded
// as it is and the upper run reversed (one bitonic sequence of 1,024 floats), and ten half-cleaner
// steps of 512 compare-and-swaps each, a barrier after every step, sort it; each compare-and-swap
// compares totalOrder keys made from the bits (the course's order, written out), not before().
// before() is called once a block, on the first float of each run (one of each run, so the
// same-run probe counts nothing), which keeps the count of comparisons above zero, the only lower
// bound the tests set. The output is the same, bit for bit; ten steps cost about what the binary
// searches do, so the clock passes it (unlike resort_with_own_order, whose 1,024 steps it catches);
// the compiled code has the shared loads and stores and the barriers, and no atomic.
// A correct grader should ask for a number of comparisons near a merge's, from below as well as
// from above (2 kRun log2 kRun, within a factor), or see the comparisons some other way.
// Caught since every checked run is made under a scrambled order: its own comparisons sort the
// course's way.
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
  __shared__ float s[2 * kRun];
  const std::size_t lo = first + 2 * blockIdx.x * kRun;
  for (unsigned i = threadIdx.x; i < 2 * kRun; i += blockDim.x) {
    // The upper run goes in reversed: lower ascending, then upper descending.
    const std::size_t from = i < kRun ? lo + i : lo + kRun + (2 * kRun - 1 - i);
    s[i] = from < n ? data[from] : last_float();
  }
  __syncthreads();
  if (threadIdx.x == 0) (void)before(s[0], s[2 * kRun - 1]);  // one float of each run
  for (unsigned j = static_cast<unsigned>(kRun); j >= 1; j /= 2) {
    for (unsigned k = threadIdx.x; k < kRun; k += blockDim.x) {
      const unsigned x = (k / j) * 2 * j + k % j;
      const float a = s[x];
      const float b = s[x + j];
      if (key_of(b) < key_of(a)) {
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
