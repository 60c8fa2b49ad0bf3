// What exercise 2 (lesson 05) gives the student's file: the course's order and its last float.
// While the tests' probe is armed, every comparison is counted.
#pragma once

#include "order.hpp"  // lesson05::TotalOrder, lesson05::last_float

namespace grading {

__device__ unsigned long long* g_comparisons = nullptr;  // null: not counting

}  // namespace grading

namespace exercise05 {

// Whether a comes before b in the course's order, IEEE 754's totalOrder (NaNs and signed zeros in
// their places).
__device__ inline bool before(float a, float b) {
#ifndef GRADING_SASS  // the compiled-code check reads the answer's own instructions, not the
                      // probe's
  if (grading::g_comparisons != nullptr) atomicAdd(grading::g_comparisons, 1ull);
#endif
  return lesson05::TotalOrder{}(a, b);
}

// The last float in that order (a NaN): what a place past the end of the data holds.
using lesson05::last_float;

}  // namespace exercise05
