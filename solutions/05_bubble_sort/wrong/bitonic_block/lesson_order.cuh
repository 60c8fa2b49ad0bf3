// A wrong answer to exercise 4 (lesson 05): the network written right, but with the lesson's own
// compare-and-swap named directly. The answer check refuses lesson05:: in the exercises (the given
// order_pair is what the tests watch).
// expect: rejected: uses lesson05::
#pragma once

#include "bitonic_block_support.cuh"

namespace exercise05 {

__device__ void bitonic_sort_shared(float* s, unsigned size) {
  for (unsigned k = 2; k <= size; k *= 2) {
    for (unsigned j = k / 2; j > 0; j /= 2) {
      for (unsigned q = threadIdx.x; q < size / 2; q += blockDim.x) {
        const unsigned x = ((q & ~(j - 1)) << 1) | (q & (j - 1));
        if ((x & k) == 0) {
          lesson05::order_pair(s[x], s[x + j]);
        } else {
          lesson05::order_pair(s[x + j], s[x]);
        }
      }
      __syncthreads();
    }
  }
}

}  // namespace exercise05
