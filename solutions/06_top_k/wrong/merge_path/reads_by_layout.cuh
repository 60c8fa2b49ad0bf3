// An adversarial answer to exercise 2 (lesson 06): the counted lists read around their counter,
// found by their layout rather than their names. Handed the keys themselves (the timed case), it
// does the binary search, as asked. Handed a list object, it copies the list's first 8 bytes out
// with memcpy: a list larger than a pointer is taken to start with the keys' pointer (the
// harness's first counted list: keys, then the counter); one the size of a pointer, to point at a
// struct that starts with it (the second: one pointer to keys and count together, the size of a
// pointer precisely so that its type does not give it away). Through that raw pointer it walks
// both lists from the start, v1's O(k) merge, and no read is counted. Private members would not
// stop it (memcpy does not ask); every key is right and the timed merge is a search.
// How a correct grader should catch it: counted lists that do not hold a plain pointer to the
// keys where the answer can copy it out (the pointer kept scrambled, or the keys reached only
// through the counting operator[]), so the walk's reads are counted.
// expect: rejected: uses memcpy
#pragma once

#include <cstring>
#include <type_traits>

#include "keys_support.cuh"  // Key (grading/)

namespace exercise06 {

namespace detail {

template <typename L>
__device__ const Key* raw_keys(const L& l) {
  const void* first = nullptr;
  std::memcpy(&first, &l, sizeof first);
  if (sizeof(L) > sizeof(const void*)) return static_cast<const Key*>(first);
  const Key* keys = nullptr;
  std::memcpy(&keys, first, sizeof keys);  // the struct the list points to begins with the keys
  return keys;
}

__device__ inline Key walk(const Key* a, const Key* b, int k, int o) {
  int i = 0;
  int j = 0;
  Key last = 0;
  for (int t = 0; t <= o; ++t) {
    if (j >= k || (i < k && a[i] >= b[j])) {
      last = a[i++];
    } else {
      last = b[j++];
    }
  }
  return last;
}

__device__ inline Key search(const Key* a, const Key* b, int k, int o) {
  int lo = o + 1 - k > 0 ? o + 1 - k : 0;
  int hi = o + 1 < k ? o + 1 : k;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (a[mid] >= b[o - mid]) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  const int i = lo;
  if (i == 0) return b[o];
  if (i == o + 1) return a[o];
  const Key x = a[i - 1];
  const Key y = b[o - i];
  return x < y ? x : y;
}

}  // namespace detail

template <typename List>
__device__ Key merged_at(const List& a, const List& b, int k, int o) {
  if constexpr (std::is_pointer<List>::value) {
    return detail::search(a, b, k, o);
  } else {
    return detail::walk(detail::raw_keys(a), detail::raw_keys(b), k, o);
  }
}

}  // namespace exercise06
