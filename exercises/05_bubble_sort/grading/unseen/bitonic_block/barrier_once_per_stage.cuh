// A wrong answer to exercise 4 (lesson 05) that the tests cannot see on the H100: a race. The
// network is Batcher's, but the barrier comes once per stage instead of after every step, so a step
// may read places the step before has not finished writing; on the H100 every test of the exercise
// passed with it (docs/results/h100-80gb-hbm3/grade_unseen.txt). (compute-sanitizer --tool
// racecheck looks for races in shared memory.) Kept here, outside the wrong answers that must score
// zero, to show what testing cannot promise.
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
