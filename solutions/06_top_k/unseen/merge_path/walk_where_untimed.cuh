// A wrong answer to exercise 2 (lesson 06) that the tests cannot see: behaviour keyed to what is
// timed. Handed a counted list (not a pointer), or a pointer at k = 1024 (the [timing] case's k),
// it searches, as asked; handed a pointer at any other k, it walks from the start of both lists,
// as v1 does. Every key is right, every counted read is within the bound and the timed merge is a
// search: the walk runs only where nothing counts or times it. The technique is written, and the
// shortcut is taken besides; a reader finds it. Kept here, outside the wrong answers that must
// score zero, to show what testing cannot promise.
#pragma once

#include <type_traits>

#include "keys_support.cuh"

namespace exercise06 {

template <typename List>
__device__ Key merged_at(const List& a, const List& b, int k, int o) {
  const int taken = o + 1;
  if (std::is_pointer<List>::value && k != 1024) {
    int i = 0;
    int j = 0;
    Key key = 0;
    for (int step = 0; step < taken; ++step) {
      if (j >= k || (i < k && a[i] >= b[j])) {
        key = a[i++];
      } else {
        key = b[j++];
      }
    }
    return key;
  }
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
  if (low == 0) return b[taken - 1];
  if (taken - low == 0) return a[low - 1];
  const Key last_a = a[low - 1];
  const Key last_b = b[taken - low - 1];
  return last_a < last_b ? last_a : last_b;
}

}  // namespace exercise06
