// A wrong answer to exercise 1 (lesson 05): one thread sorts everything by insertion in the first
// launch, and the other launches do nothing. It sorts small inputs; the counts of the
// compare-and-swaps show it is not odd-even transposition, and at 20,011 floats one thread takes
// longer than the watchdog allows.
// expect: fails: (pairs compared a number of times other than once per phase|did not finish)
#pragma once

#include <cstddef>

#include "phase_launches_support.cuh"

namespace exercise05 {

constexpr int kPhaseThreads = 256;

constexpr std::size_t phases_for(std::size_t n) {
  return n;
}

__global__ void odd_even_phase_kernel(float* data, std::size_t n, std::size_t phase) {
  if (phase != 0 || blockIdx.x != 0 || threadIdx.x != 0) return;
  for (std::size_t i = 1; i < n; ++i) {
    for (std::size_t j = i; j > 0; --j)
      order_pair(data[j - 1], data[j]);
  }
}

}  // namespace exercise05
