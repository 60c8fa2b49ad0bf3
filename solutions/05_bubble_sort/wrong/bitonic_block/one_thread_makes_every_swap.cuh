// A wrong answer to exercise 4 (lesson 05): the technique skipped where only speed shows it. Thread
// 0 makes every compare-and-swap of Batcher's network, step by step, while the block's other
// threads only wait at the barriers. The network, its order and the result are all right; one
// thread doing the block's 4,096 compare-and-swaps a step takes many times as long.
// expect: slow
#pragma once

#include "bitonic_block_support.cuh"

namespace exercise05 {

__device__ void bitonic_sort_shared(float* s, unsigned size) {
  for (unsigned k = 2; k <= size; k *= 2) {
    for (unsigned j = k / 2; j > 0; j /= 2) {
      if (threadIdx.x == 0) {
        for (unsigned x = 0; x < size; ++x) {
          if ((x & j) != 0) continue;
          if ((x & k) == 0) {
            order_pair(s[x], s[x + j]);
          } else {
            order_pair(s[x + j], s[x]);
          }
        }
      }
      __syncthreads();
    }
  }
}

}  // namespace exercise05
