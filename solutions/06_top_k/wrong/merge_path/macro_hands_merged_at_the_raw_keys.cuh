// A wrong answer to exercise 2 (lesson 06), sixth adversarial round (helper B). What it fakes: the
// O(log k) search, on the counted lists above all. The harness includes this file before its own
// code, so a macro defined at the end of it rewrites the harness's kernel: merge_kernel's three
// calls exercise06::merged_at(la, lb, k, o) become exercise06::merged_from(a + list, b + list, k,
// o), where a, b and list are merge_kernel's own parameters and local (the plain keys of the
// block's pair of lists). The counted lists are built and never read: no operator[] is called, no
// read is counted, no mask is needed. merged_from walks both lists from the start, v1's two
// pointers, up to 2(o + 1) reads a place, except in a launch of the [timing] case's shape (k =
// 1024 and 65,536 blocks or more), where it searches as the model does. The answer check refuses
// #undef, ## and names, not #define: nothing stops a macro from reaching the code that follows it.
//
// Why each test passes:
// - every place of the merge (plain pointers, every k, all four key ranges, 100 or 1000 pairs): the
//   walk gives key o of the merge of a and b, ties to a, as std::merge's order does; the keys are
//   compared, not where they came from.
// - O(log k) reads (both kinds of counted list): merge_kernel sets reads[list + o] = 0, then the
//   macro's call walks the plain keys; nothing goes through counted_read, so every count stays 0
//   and "the most keys one place read" is 0, under 2 ceil(log2(k + 1)) + 4. The outputs are
//   right (the same walk), so the first REQUIRE holds too.
// - timing (plain pointers, k = 1024, 65,536 to 69,631 pairs): the search, about 11 steps a
//   place, as the model's; the sample of pairs is right.
// Compiled code: the PTX is built from the same harness with this file, so its kernel has the
// walk and the search: global loads of the lists (ld.global, required), no barrier, shared memory,
// atomic or warp collective.
// Time: the model's search in the timed launch (factor 3).
// A correct grader would compile the harness so that the answer's macros cannot reach it: the
// answer in a translation unit of its own, or the answer check refusing #define, or the harness
// checking after the include that its own names are not macros (#ifdef merged_at ... #error).
// Caught: the answer check refuses #define; and every place must read one key at least.
// expect: rejected: uses #define (a macro would rewrite the harness compiled after it)
#pragma once

#include "keys_support.cuh"  // Key (grading/)

namespace exercise06 {

// v1's two pointers: key o of the merge of a[0, k) and b[0, k), walked from the start of both.
template <typename List>
__device__ Key walked_at(const List& a, const List& b, int k, int o) {
  int i = 0;
  int j = 0;
  Key last = 0;
  for (int step = 0; step <= o; ++step) {
    if (j >= k || (i < k && a[i] >= b[j])) {
      last = a[i++];
    } else {
      last = b[j++];
    }
  }
  return last;
}

// The search of where the first o + 1 keys split between the lists.
__device__ inline Key searched_at(const Key* a, const Key* b, int k, int o) {
  const int taken = o + 1;
  int low = taken > k ? taken - k : 0;
  int high = taken < k ? taken : k;
  while (low < high) {
    const int i = (low + high) / 2;
    if (a[i] >= b[taken - 1 - i]) {
      low = i + 1;
    } else {
      high = i;
    }
  }
  const int from_a = low;
  const int from_b = taken - low;
  if (from_a == 0) return b[from_b - 1];
  if (from_b == 0) return a[from_a - 1];
  const Key last_a = a[from_a - 1];
  const Key last_b = b[from_b - 1];
  return last_a < last_b ? last_a : last_b;
}

// What the harness's kernel calls, through the macro below: the plain keys of its pair of lists.
__device__ inline Key merged_from(const Key* a, const Key* b, int k, int o) {
  if (k == 1024 && gridDim.x >= 65536) return searched_at(a, b, k, o);  // the [timing] case
  return walked_at(a, b, k, o);
}

// Key o (0 <= o < k) of the merge of a[0, k) and b[0, k), both in descending order.
template <typename List>
__device__ Key merged_at(const List& a, const List& b, int k, int o) {
  return walked_at(a, b, k, o);
}

}  // namespace exercise06

// From here on (the harness's kernel), a call of merged_at takes the kernel's own keys.
#define merged_at(la, lb, k, o) merged_from(a + list, b + list, k, o)
