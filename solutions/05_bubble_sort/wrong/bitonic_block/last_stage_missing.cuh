// A wrong answer to exercise 4 (lesson 05): an off-by-one in the stages, k < size instead of
// k <= size, so the last stage, the one that merges the two sorted halves, never runs.
// expect: fails: elements differ
#pragma once

#include "bitonic_block_support.cuh"

namespace exercise05 {

__device__ void bitonic_sort_shared(float* s, unsigned size) {
  for (unsigned k = 2; k < size; k *= 2) {
    for (unsigned j = k / 2; j > 0; j /= 2) {
      for (unsigned q = threadIdx.x; q < size / 2; q += blockDim.x) {
        const unsigned x = ((q & ~(j - 1)) << 1) | (q & (j - 1));
        if ((x & k) == 0) {
          order_pair(s[x], s[x + j]);
        } else {
          order_pair(s[x + j], s[x]);
        }
      }
      __syncthreads();
    }
  }
}

}  // namespace exercise05
