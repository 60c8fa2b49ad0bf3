// A wrong answer to exercise 1 (lesson 05): n / 2 phases, as the source's text says (its loops run
// more). Enough for some inputs; the reversed input, whose smallest value must travel the whole
// array, is not sorted.
// expect: fails: elements differ
#pragma once

#include <cstddef>

#include "phase_launches_support.cuh"

namespace exercise05 {

constexpr int kPhaseThreads = 256;

constexpr std::size_t phases_for(std::size_t n) {
  return n / 2;
}

__global__ void odd_even_phase_kernel(float* data, std::size_t n, std::size_t phase) {
  const std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t i = 2 * p + phase % 2;
  if (i + 1 < n) order_pair(data[i], data[i + 1]);
}

}  // namespace exercise05
