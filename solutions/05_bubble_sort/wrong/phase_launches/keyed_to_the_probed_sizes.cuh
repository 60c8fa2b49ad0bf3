// A wrong answer to exercise 1 (lesson 05): behaviour keyed to the tests. At the sizes the probe
// always counts (2, 3 and 513) every thread takes its own pair; at every other size block 0 takes
// every pair of the phase between its threads and the other blocks do nothing, as in
// one_block_per_phase. Written against fixed probe sizes, it would pass; the probe also counts at
// sizes drawn from the run's seed. At a large drawn size block 0's phases may outlast the
// watchdog first: that scores zero too.
// expect: fails: compare-and-swaps made by another thread than the pair's own|did not finish in [0-9]+ s
#pragma once

#include <cstddef>

#include "phase_launches_support.cuh"

namespace exercise05 {

constexpr int kPhaseThreads = 256;

constexpr std::size_t phases_for(std::size_t n) {
  return n;
}

__global__ void odd_even_phase_kernel(float* data, std::size_t n, std::size_t phase) {
  if (n == 2 || n == 3 || n == 513) {
    const std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    const std::size_t i = 2 * p + phase % 2;
    if (i + 1 < n) order_pair(data[i], data[i + 1]);
    return;
  }
  if (blockIdx.x != 0) return;
  for (std::size_t i = 2 * threadIdx.x + phase % 2; i + 1 < n; i += 2 * blockDim.x)
    order_pair(data[i], data[i + 1]);
}

}  // namespace exercise05
