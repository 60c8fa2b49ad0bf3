// An adversarial answer to exercise 4 (lesson 05): behaviour keyed to the launch. Every test that
// looks at the network or the output of a block launches ONE block; only the [timing] case, which
// times thousands of blocks and checks a sample of them sorted, launches more. So with gridDim.x
// == 1 this makes Batcher's network, step by step, as asked; with more blocks it makes v4's flip
// form (every compare-and-swap sends the smaller value to the lower place, the first step of each
// stage compares mirror images), which sorts just as well and as fast. The sampled blocks come out
// sorted and the time is the model answer's; no probe ever sees the flip form. A grader that logs
// the network in a launch of several blocks (or checks the timed run's network) catches it.
// expect: fails: places \(block [0-9]+ of a launch of [0-9]+\)
#pragma once

#include "bitonic_block_support.cuh"

namespace exercise05 {

__device__ void bitonic_sort_shared(float* s, unsigned size) {
  const bool batcher = gridDim.x == 1;
  const unsigned half = size / 2;
  for (unsigned k = 2; k <= size; k *= 2) {
    for (unsigned j = k / 2; j > 0; j /= 2) {
      for (unsigned q = threadIdx.x; q < half; q += blockDim.x) {
        const unsigned x = ((q & ~(j - 1)) << 1) | (q & (j - 1));
        if (batcher) {
          if ((x & k) == 0) {
            order_pair(s[x], s[x + j]);
          } else {
            order_pair(s[x + j], s[x]);
          }
        } else if (j == k / 2) {  // the flip: x against its mirror image in the block of k
          order_pair(s[x], s[x ^ (k - 1)]);
        } else {
          order_pair(s[x], s[x + j]);
        }
      }
      __syncthreads();
    }
  }
}

}  // namespace exercise05
