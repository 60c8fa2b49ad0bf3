// Exercise 1 (lesson 05): the source's exercise 1, odd-even transposition in global memory, with
// many blocks. v1 keeps the source's single block and its __syncthreads() between phases; one block
// uses one SM of the GPU. Here every phase is a launch of as many blocks as its pairs need, and the
// end of a launch is the barrier: nothing of the next launch starts before every block of this one
// has finished. Write the phase kernel and the number of phases; the harness copies the input to
// the output and launches phase 0, 1, ... on it, with kPhaseThreads threads per block.
#pragma once

#include <cstddef>

#include "phase_launches_support.cuh"  // order_pair (grading/)

namespace exercise05 {

constexpr int kPhaseThreads = 256;

// How many phases sort any n >= 1 floats: the fewest that sort every input, the reversed one too.
constexpr std::size_t phases_for(std::size_t n) {
  // TODO: the source's text says n / 2; its loops run more. How many does a value need to travel
  //   from one end of the array to the other, one place per phase at most?
  (void)n;
  return 1;
}

// Phase `phase` of odd-even transposition on data[0, n): the pairs (i, i + 1) whose i has the
// parity of `phase`, each put in order by one thread with order_pair.
__global__ void odd_even_phase_kernel(float* data, std::size_t n, std::size_t phase) {
  // TODO: thread p of the grid (p = blockIdx.x * blockDim.x + threadIdx.x, as a std::size_t) takes
  //   the pair that starts at i = 2p + phase % 2, if i + 1 < n. One call of order_pair per pair, on
  //   data[i] and data[i + 1]; no loop, no barrier: the launch is the phase.
  (void)data;
  (void)n;
  (void)phase;
}

}  // namespace exercise05
