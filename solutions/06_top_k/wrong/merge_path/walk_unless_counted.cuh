// A wrong answer to exercise 2 (lesson 06): behaviour keyed to the list type that counts reads.
// Handed a list that is not a plain pointer (the tests' counted lists), it searches, as asked;
// handed the keys themselves, it walks from the start of both lists with two pointers, as v1 does,
// reading up to 2(o + 1) keys for place o. Every key is right and every counted read is within the
// bound; where no list counts, at k = 1024, it takes many times as long.
// expect: slow
#pragma once

#include <type_traits>

#include "keys_support.cuh"

namespace exercise06 {

template <typename List>
__device__ Key merged_at(const List& a, const List& b, int k, int o) {
  if (std::is_pointer<List>::value) {
    int i = 0;
    int j = 0;
    Key key = 0;
    for (int step = 0; step <= o; ++step) {
      if (j >= k || (i < k && a[i] >= b[j])) {
        key = a[i++];
      } else {
        key = b[j++];
      }
    }
    return key;
  }
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
  if (low == 0) return b[taken - 1];
  if (taken - low == 0) return a[low - 1];
  const Key last_a = a[low - 1];
  const Key last_b = b[taken - low - 1];
  return last_a < last_b ? last_a : last_b;
}

}  // namespace exercise06
