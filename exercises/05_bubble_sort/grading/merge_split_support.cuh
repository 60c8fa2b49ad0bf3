// What exercise 2 (lesson 05) gives the student's file: the course's order and its last float.
// While the tests' probe is armed, every comparison is counted, with the thread that made it, and
// those of two floats of one run. One test turns the order round (g_reversed): an answer that
// compares only with before() and pads only with last_float() sorts the other way then, as the
// statement's "compare floats only with before()" promises; one with comparisons of its own does
// not.
#pragma once

#include "order.hpp"  // lesson05::TotalOrder, lesson05::last_float

namespace grading {

__device__ unsigned long long* g_comparisons = nullptr;  // null: not counting
// Null, or where to count the comparisons of two floats whose lowest bits are the same: the tests
// give every float of a run the lowest bit of its run's number, so that a comparison of two floats
// of one run shows (a merge compares a float of one run only with floats of the other).
__device__ unsigned long long* g_same_run = nullptr;
// Null, or kMergeThreads counters: the comparisons each thread of a block made, summed over blocks.
__device__ unsigned long long* g_thread_comparisons = nullptr;
// The order turned round: before(a, b) is then b before a in totalOrder, and last_float() the first
// float of totalOrder.
__device__ bool g_reversed = false;

// Whether a comparison involves a place past the end: those hold last_float() in either order, and
// whichever run they are padding for, their lowest bit says nothing of it.
__device__ inline bool is_padding(float x) {
  const unsigned bits = __float_as_uint(x);
  return bits == 0x7FFFFFFFu || bits == 0xFFFFFFFFu;
}

}  // namespace grading

namespace exercise05 {

// Whether a comes before b in the course's order, IEEE 754's totalOrder (NaNs and signed zeros in
// their places).
__device__ inline bool before(float a, float b) {
#ifndef GRADING_SASS  // the compiled-code check reads the answer's own instructions, not the
                      // probe's
  if (grading::g_comparisons != nullptr) atomicAdd(grading::g_comparisons, 1ull);
  if (grading::g_same_run != nullptr && ((__float_as_uint(a) ^ __float_as_uint(b)) & 1u) == 0 &&
      !grading::is_padding(a) && !grading::is_padding(b))
    atomicAdd(grading::g_same_run, 1ull);
  if (grading::g_thread_comparisons != nullptr)
    atomicAdd(grading::g_thread_comparisons + threadIdx.x % 256, 1ull);
  if (grading::g_reversed) return lesson05::TotalOrder{}(b, a);
#endif
  return lesson05::TotalOrder{}(a, b);
}

// The last float in that order (a NaN): what a place past the end of the data holds.
__device__ inline float last_float() {
#ifndef GRADING_SASS
  if (grading::g_reversed) return __uint_as_float(0xFFFFFFFFu);
#endif
  return lesson05::last_float();
}

}  // namespace exercise05
