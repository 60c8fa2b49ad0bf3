// A wrong answer to exercise 4 (lesson 05): behaviour keyed to the probe's input. The old probe
// always ran the network on the same floats, (i * 2654435761) % 10007 at place i; on those this
// answer makes Batcher's network, and on any other input v4's flip form, which sorts too. The old
// tests passed it; the probe's input is now drawn from the run's seed.
// expect: fails: CHECK\( extra\.empty\(\) \)
#pragma once

#include "bitonic_block_support.cuh"

namespace exercise05 {

__device__ inline bool the_probes_input(const float* s, unsigned size) {
  for (unsigned i = 0; i < size && i < 4; ++i) {
    if (s[i] != static_cast<float>((i * 2654435761u) % 10007u)) return false;
  }
  return true;
}

__device__ void bitonic_sort_shared(float* s, unsigned size) {
  const bool watched = the_probes_input(s, size);
  __syncthreads();  // every thread has looked before any place changes
  for (unsigned k = 2; k <= size; k *= 2) {
    for (unsigned j = k / 2; j > 0; j /= 2) {
      for (unsigned q = threadIdx.x; q < size / 2; q += blockDim.x) {
        const unsigned x = ((q & ~(j - 1)) << 1) | (q & (j - 1));
        if (watched) {  // Batcher's form
          if ((x & k) == 0) {
            order_pair(s[x], s[x + j]);
          } else {
            order_pair(s[x + j], s[x]);
          }
        } else if (j == k / 2) {  // the flip form: mirror images first
          const unsigned lo = ((q & ~(j - 1)) << 1) | (q & (j - 1));
          order_pair(s[lo], s[lo ^ (k - 1)]);
        } else {
          order_pair(s[x], s[x + j]);
        }
      }
      __syncthreads();
    }
  }
}

}  // namespace exercise05
