// A wrong answer to exercise 4 (lesson 05): a race. The network is Batcher's, but the barrier comes
// once per stage instead of after every step, so a step may read places the step before has not
// finished writing. On the H100 every test of the old suite passed with it (it was kept in unseen/
// as a race the hardware forgave: docs/results/h100-80gb-hbm3/grade_unseen.txt). The probe now has
// some warps sleep before each compare-and-swap and logs the calls in the order they are made: the
// warps that do not sleep run into the next step while the others are still in this one.
// expect: fails: (compare-and-swaps still to make|elements differ)
#pragma once

#include "bitonic_block_support.cuh"

namespace exercise05 {

__device__ void bitonic_sort_shared(float* s, unsigned size) {
  for (unsigned k = 2; k <= size; k *= 2) {
    for (unsigned j = k / 2; j > 0; j /= 2) {
      for (unsigned q = threadIdx.x; q < size / 2; q += blockDim.x) {
        const unsigned x = ((q & ~(j - 1)) << 1) | (q & (j - 1));
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

}  // namespace exercise05
