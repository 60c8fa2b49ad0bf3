// Exercise 4 (lesson 05, advanced): bitonic sort of one block in shared memory, in Batcher's own
// form. v4 uses the "flip" form, in which every compare-and-swap sends the smaller value to the
// lower place and the first step of each stage compares mirror images. Batcher's form compares only
// places j apart, and sorts every block of k places of stage k up or down in turn, so that each
// pair of neighbouring blocks makes a bitonic sequence for the next stage. Write the network; the
// harness loads one block's floats into shared memory (padded with the last float up to a power of
// two), calls your function with every thread, and stores the floats back.
#pragma once

#include "bitonic_block_support.cuh"  // order_pair (grading/)

namespace exercise05 {

// Sorts s[0, size) in the course's order; size is a power of two, up to 8192; every thread of the
// block calls this.
__device__ void bitonic_sort_shared(float* s, unsigned size) {
  // TODO: stages k = 2, 4, ..., size; in each, steps j = k / 2, k / 4, ..., 1. In step j, every
  //   place x whose bit j is 0 is compared with x + j: upward (order_pair(s[x], s[x + j])) when
  //   bit k of x is 0, downward (order_pair(s[x + j], s[x])) when it is 1. A step has size / 2 such
  //   pairs: thread t takes pairs t, t + blockDim.x, ...; the lower place of pair q is
  //   ((q & ~(j - 1)) << 1) | (q & (j - 1)). A barrier ends every step.
  (void)s;
  (void)size;
}

}  // namespace exercise05
