// A wrong answer to exercise 2 (lesson 06): the lesson's own two-pointer merge from its CPU
// reference, named. The answer check refuses lesson06:: in the exercises.
// expect: rejected: uses lesson06::
#pragma once

#include "keys_support.cuh"

namespace exercise06 {

template <typename List>
__device__ Key merged_at(const List& a, const List& b, int k, int o) {
  Key out[1024];
  lesson06::merge_top_k(&a[0], &b[0], k, out);
  return out[o];
}

}  // namespace exercise06
