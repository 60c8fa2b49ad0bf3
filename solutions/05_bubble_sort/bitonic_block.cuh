// Exercise 4 (lesson 05), solved: Batcher's bitonic network, every block of k places of stage k
// sorted up or down by bit k of its places.
#pragma once

#include "bitonic_block_support.cuh"  // order_pair (grading/)

namespace exercise05 {

// Sorts s[0, size) in the course's order; size is a power of two, up to 8192; every thread of the
// block calls this.
__device__ void bitonic_sort_shared(float* s, unsigned size) {
  for (unsigned k = 2; k <= size; k *= 2) {
    for (unsigned j = k / 2; j > 0; j /= 2) {
      for (unsigned q = threadIdx.x; q < size / 2; q += blockDim.x) {
        const unsigned x = ((q & ~(j - 1)) << 1) | (q & (j - 1));  // bit j of x is 0
        if ((x & k) == 0) {
          order_pair(s[x], s[x + j]);  // this block of k places goes up
        } else {
          order_pair(s[x + j], s[x]);  // and its neighbour down
        }
      }
      __syncthreads();  // every pair of this step is in order before the next step reads them
    }
  }
}

}  // namespace exercise05
