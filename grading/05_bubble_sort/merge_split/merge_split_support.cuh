// What exercise 2 (lesson 05) gives the student's file: the course's order and its last float.
// While the tests' probe is armed, every comparison is counted, by the thread that made it, and
// those of two floats of one run. The tests set the order (merge_split_order.hpp): every run they
// check is made under a scrambled order drawn from the seed, in which only before() can tell which
// float goes first, and last_float() is its padding; the timed run and one test case (NaNs and
// signed zeros) use the course's order.
#pragma once

#include "merge_split_order.hpp"  // grading05::order_place, last_float_of
#include "order.hpp"              // lesson05::TotalOrder, lesson05::last_float

namespace grading {

// Null, or a counter per thread of the launch (blockIdx.x * 256 + threadIdx.x): the comparisons
// each thread made. Each thread adds to its own, so no atomic is needed (the launches of a run
// follow each other on one stream).
__device__ unsigned long long* g_thread_comparisons = nullptr;
// Null, or where to count the comparisons of two floats of the same run: the tests mark each float
// of a run with the run's parity, as the parity of the bits that g_run_mask selects (a mask drawn
// from the seed, so that an answer cannot see which input is marked), and a merge compares a float
// of one run only with floats of the other.
__device__ unsigned long long* g_same_run = nullptr;
__device__ unsigned g_run_mask = 0;
// The order's key: 0 for the course's order (totalOrder), else a scrambled order.
__device__ unsigned long long g_order_key = 0;

// Whether a comparison involves a place past the end: those hold last_float(), and whichever run
// they are padding for, their bits say nothing of it.
__device__ inline bool is_padding(float x) {
  return __float_as_uint(x) == __float_as_uint(grading05::last_float_of(g_order_key));
}

}  // namespace grading

namespace exercise05 {

// Whether a comes before b in the course's order, IEEE 754's totalOrder (NaNs and signed zeros in
// their places), or in the scrambled order a test has set.
__device__ inline bool before(float a, float b) {
#ifndef GRADING_SASS  // the compiled-code check reads the answer's own instructions, not the
                      // probe's
  if (grading::g_thread_comparisons != nullptr)
    ++grading::g_thread_comparisons[blockIdx.x * 256ull + threadIdx.x % 256];
  if (grading::g_same_run != nullptr &&
      __popc((__float_as_uint(a) ^ __float_as_uint(b)) & grading::g_run_mask) % 2 == 0 &&
      !grading::is_padding(a) && !grading::is_padding(b))
    atomicAdd(grading::g_same_run, 1ull);
  return grading05::KeyedOrder{grading::g_order_key}(a, b);
#else
  return lesson05::TotalOrder{}(a, b);
#endif
}

// The last float in that order (a NaN): what a place past the end of the data holds.
__device__ inline float last_float() {
#ifndef GRADING_SASS
  return grading05::last_float_of(grading::g_order_key);
#else
  return lesson05::last_float();
#endif
}

}  // namespace exercise05
