// Exercise 1 (lesson 05), solved: one thread per pair, one launch per phase, n phases.
#pragma once

#include <cstddef>

#include "phase_launches_support.cuh"  // order_pair (grading/)

namespace exercise05 {

constexpr int kPhaseThreads = 256;

// How many phases sort any n >= 1 floats: the fewest that sort every input, the reversed one too.
// A value moves at most one place per phase, and the reversed input needs n of them: for odd n its
// smallest starts at the far end, n - 1 places from home, and waits a phase before it first moves;
// for even n its second smallest is first pushed to the far end, n - 2 places from home, and waits
// there a phase (the source's v0 runs n/2 + 1 rounds of two: one or two more).
constexpr std::size_t phases_for(std::size_t n) {
  return n;
}

// Phase `phase` of odd-even transposition on data[0, n): the pairs (i, i + 1) whose i has the
// parity of `phase`, each put in order by one thread with order_pair.
__global__ void odd_even_phase_kernel(float* data, std::size_t n, std::size_t phase) {
  const std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t i = 2 * p + phase % 2;
  if (i + 1 < n) order_pair(data[i], data[i + 1]);
}

}  // namespace exercise05
