// What exercise 2 (lesson 05) gives the student's file: the course's order and its last float.
// While the tests' probe is armed, every comparison is counted, and those of two floats of one run.
#pragma once

#include "order.hpp"  // lesson05::TotalOrder, lesson05::last_float

namespace grading {

__device__ unsigned long long* g_comparisons = nullptr;  // null: not counting
// Null, or where to count the comparisons of two floats whose lowest bits are the same: the tests
// give every float of a run the lowest bit of its run's number, so that a comparison of two floats
// of one run shows (a merge compares a float of one run only with floats of the other).
__device__ unsigned long long* g_same_run = nullptr;

}  // namespace grading

namespace exercise05 {

// Whether a comes before b in the course's order, IEEE 754's totalOrder (NaNs and signed zeros in
// their places).
__device__ inline bool before(float a, float b) {
#ifndef GRADING_SASS  // the compiled-code check reads the answer's own instructions, not the
                      // probe's
  if (grading::g_comparisons != nullptr) atomicAdd(grading::g_comparisons, 1ull);
  if (grading::g_same_run != nullptr && ((__float_as_uint(a) ^ __float_as_uint(b)) & 1u) == 0)
    atomicAdd(grading::g_same_run, 1ull);
#endif
  return lesson05::TotalOrder{}(a, b);
}

// The last float in that order (a NaN): what a place past the end of the data holds.
using lesson05::last_float;

}  // namespace exercise05
