// A wrong answer to exercise 4 (lesson 05): one warp sorts the block. The first 32 threads make
// every compare-and-swap of Batcher's network, with __syncwarp() between steps, and the other warps
// leave at once. The network and the result are right, but the network has no barrier of the
// block (the compiled-code check reads it), and 32 threads do the work of up to 1,024.
// expect: compiled: lacks a barrier
#pragma once

#include "bitonic_block_support.cuh"

namespace exercise05 {

__device__ void bitonic_sort_shared(float* s, unsigned size) {
  if (threadIdx.x >= 32) return;
  for (unsigned k = 2; k <= size; k *= 2) {
    for (unsigned j = k / 2; j > 0; j /= 2) {
      for (unsigned q = threadIdx.x; q < size / 2; q += 32) {
        const unsigned x = ((q & ~(j - 1)) << 1) | (q & (j - 1));
        if ((x & k) == 0) {
          order_pair(s[x], s[x + j]);
        } else {
          order_pair(s[x + j], s[x]);
        }
      }
      __syncwarp();
    }
  }
}

}  // namespace exercise05
