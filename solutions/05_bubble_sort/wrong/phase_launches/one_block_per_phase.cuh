// A wrong answer to exercise 1 (lesson 05): one block does a whole phase. Each launch is still one
// phase, and every pair is still compared once in each phase of its parity, but block 0's threads
// take every pair of the phase between them (a loop with a stride of one block) and the other
// blocks do nothing: one SM of the GPU sorts, as in v1. The probe sees that the pairs are not
// compared by their own threads (thread p, the pair at 2p + phase % 2).
// expect: fails: compare-and-swaps made by another thread than the pair's own
#pragma once

#include <cstddef>

#include "phase_launches_support.cuh"

namespace exercise05 {

constexpr int kPhaseThreads = 256;

constexpr std::size_t phases_for(std::size_t n) {
  return n;
}

__global__ void odd_even_phase_kernel(float* data, std::size_t n, std::size_t phase) {
  if (blockIdx.x != 0) return;
  for (std::size_t i = 2 * threadIdx.x + phase % 2; i + 1 < n; i += 2 * blockDim.x)
    order_pair(data[i], data[i + 1]);
}

}  // namespace exercise05
