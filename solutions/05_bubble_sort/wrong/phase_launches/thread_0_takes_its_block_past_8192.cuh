// (The account below is of the grader before 7f125b8, which it passed; its last line says how it
// is caught now.)
// An adversarial answer to exercise 1 (lesson 05): one thread doing a block's work, at the sizes
// where no probe looks and no clock runs. Each launch is still one phase; but past 8,192 floats
// thread 0 of each block walks its block's 256 pairs of the phase one after the other, with
// order_pair, and the block's other 255 threads do nothing. The pairs of a phase are independent,
// so the result of every launch is exactly its phase's, and the sort is right. The probe (which
// would see "another thread than the pair's own") counts only up to 4,000 floats, the launch-by-
// launch check only up to 4,096, and the timed sort is 4,097 to 5,119 floats: all of them get one
// thread per pair. Above 8,192 (the first test's drawn sizes up to 12,000 and the reversed input
// of 16,384 to 24,576) only the sorted output is checked. The compiled code is the model's kind:
// global loads and stores, nothing else.
// A correct grader should probe who compares each pair at one of its large sizes too, or time
// the sort at a size it never probes.
// Caught since every sort the tests check is also probed.
// expect: fails: compare-and-swaps made by another thread than the pair's own
#pragma once

#include <cstddef>

#include "phase_launches_support.cuh"  // order_pair (grading/)

namespace exercise05 {

constexpr int kPhaseThreads = 256;

constexpr std::size_t phases_for(std::size_t n) {
  return n;
}

__global__ void odd_even_phase_kernel(float* data, std::size_t n, std::size_t phase) {
  if (n <= 8192) {
    const std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t i = 2 * p + phase % 2;
    if (i + 1 < n) order_pair(data[i], data[i + 1]);
    return;
  }
  if (threadIdx.x != 0) return;
  for (unsigned t = 0; t < blockDim.x; ++t) {
    const std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + t;
    const std::size_t i = 2 * p + phase % 2;
    if (i + 1 < n) order_pair(data[i], data[i + 1]);
  }
}

}  // namespace exercise05
