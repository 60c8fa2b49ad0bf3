// A wrong answer to exercise 1 (lesson 05): v1 inside the first launch. Block 0 runs every phase
// of the sort in launch 0, with a barrier between phases spelt through cooperative groups
// (this_thread_block().sync(), which the answer check does not read as __syncthreads), and the
// launches after it do nothing. Each pair is compared once in each phase of its parity, as before;
// but the compiled kernel has a barrier, which one phase per launch never needs (and the probe
// sees odd pairs compared in launch 0).
// expect: compiled: has a barrier
#pragma once

#include <cstddef>

#include <cooperative_groups.h>

#include "phase_launches_support.cuh"

namespace exercise05 {

constexpr int kPhaseThreads = 256;

constexpr std::size_t phases_for(std::size_t n) {
  return n;
}

__global__ void odd_even_phase_kernel(float* data, std::size_t n, std::size_t phase) {
  if (phase != 0 || blockIdx.x != 0) return;
  const cooperative_groups::thread_block block = cooperative_groups::this_thread_block();
  for (std::size_t p = 0; p < n; ++p) {
    for (std::size_t i = 2 * threadIdx.x + p % 2; i + 1 < n; i += 2 * blockDim.x)
      order_pair(data[i], data[i + 1]);
    block.sync();
  }
}

}  // namespace exercise05
