// A wrong answer to exercise 1 (lesson 05): a race. Every launch compares every pair (i, i + 1), of
// both parities, one thread per element: neighbouring pairs share a place, and two threads swap it
// at the same time.
// expect: fails: (elements differ|pairs compared a number of times)
#pragma once

#include <cstddef>

#include "phase_launches_support.cuh"

namespace exercise05 {

constexpr int kPhaseThreads = 256;

constexpr std::size_t phases_for(std::size_t n) {
  return n;
}

__global__ void odd_even_phase_kernel(float* data, std::size_t n, std::size_t phase) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  (void)phase;
  if (2 * i + 1 < n) order_pair(data[2 * i], data[2 * i + 1]);
  if (2 * i + 2 < n) order_pair(data[2 * i + 1], data[2 * i + 2]);
}

}  // namespace exercise05
