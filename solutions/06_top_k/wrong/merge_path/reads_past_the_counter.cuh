// An adversarial answer to exercise 2 (lesson 06): the counted lists read around their counter.
// Handed the keys themselves (the timed case), it does the binary search, as asked. Handed a list
// type, it looks for the keys' pointer inside it by name (a public member `keys`, or `tally->keys`,
// which is what the harness's two counted lists hold) and walks both lists from the start with two
// pointers through that raw pointer, as v1 does: up to 2(o + 1) reads a place, none of them
// counted, so "the most keys one place read" is 0. Every key is right, the timed merge is a search,
// and the compiled code has only global loads. A list with no such member is walked through its
// operator[], which would be counted.
// How a correct grader should catch it: counted lists whose key pointer cannot be reached (private,
// or held where the answer cannot name it), so the walk goes through operator[] and is counted.
// expect: fails: the most keys one place read was
#pragma once

#include <type_traits>
#include <utility>

#include "keys_support.cuh"  // Key (grading/)

namespace exercise06 {

namespace detail {

// Whether a list shows its raw keys: as `keys`, or as `tally->keys`.
template <typename L, typename = void>
struct ShowsKeys : std::false_type {};
template <typename L>
struct ShowsKeys<L, std::void_t<decltype(std::declval<const L&>().keys)>> : std::true_type {};
template <typename L, typename = void>
struct ShowsTally : std::false_type {};
template <typename L>
struct ShowsTally<L, std::void_t<decltype(std::declval<const L&>().tally->keys)>> : std::true_type {
};

// v1's two pointers, from the start of both lists up to place o.
template <typename L>
__device__ Key walk(const L& a, const L& b, int k, int o) {
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

template <typename L>
__device__ Key search(const L& a, const L& b, int k, int o) {
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
  } else if constexpr (detail::ShowsKeys<List>::value) {
    return detail::walk(a.keys, b.keys, k, o);
  } else if constexpr (detail::ShowsTally<List>::value) {
    return detail::walk(a.tally->keys, b.tally->keys, k, o);
  } else {
    return detail::walk(a, b, k, o);
  }
}

}  // namespace exercise06
