// A wrong answer to exercise 2 (lesson 06), of a kind written against the grader itself: the
// lesson's own two-pointer merge from its CPU reference, as reference_merge.cuh calls it, but its
// namespace's name pasted from two pieces by glibc's __CONCAT macro (sys/cdefs.h, which CUDA's own
// headers include). The text holds neither lesson06 nor ##, so the check of the text passes it;
// the check of the preprocessed code reads the answer's tokens after the preprocessor has pasted
// them, and refuses the name there.
// expect: preprocessed: uses lesson06::
#pragma once

#include "keys_support.cuh"

namespace exercise06 {

template <typename List>
__device__ Key merged_at(const List& a, const List& b, int k, int o) {
  Key out[1024];
  __CONCAT(less, on06)::merge_top_k(&a[0], &b[0], k, out);
  return out[o];
}

}  // namespace exercise06
