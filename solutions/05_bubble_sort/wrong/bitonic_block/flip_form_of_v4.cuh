// A wrong answer to exercise 4 (lesson 05): the lesson's own v4, copied: the flip form of the
// network, whose first step in each stage compares mirror images. It sorts; it is not the network
// the exercise asks for.
// expect: fails: CHECK\( extra\.empty\(\) \)
#pragma once

#include "bitonic_block_support.cuh"

namespace exercise05 {

__device__ void bitonic_sort_shared(float* s, unsigned size) {
  for (unsigned k = 2; k <= size; k *= 2) {
    for (unsigned q = threadIdx.x; q < size / 2; q += blockDim.x) {
      const unsigned half = k / 2;
      const unsigned lo = ((q & ~(half - 1)) << 1) | (q & (half - 1));
      order_pair(s[lo], s[lo ^ (k - 1)]);
    }
    __syncthreads();
    for (unsigned j = k / 4; j > 0; j /= 2) {
      for (unsigned q = threadIdx.x; q < size / 2; q += blockDim.x) {
        const unsigned lo = ((q & ~(j - 1)) << 1) | (q & (j - 1));
        order_pair(s[lo], s[lo + j]);
      }
      __syncthreads();
    }
  }
}

}  // namespace exercise05
