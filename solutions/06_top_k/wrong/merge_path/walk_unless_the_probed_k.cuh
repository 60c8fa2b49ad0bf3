// A wrong answer to exercise 2 (lesson 06): behaviour keyed to the tests. At the k the old count of
// reads used (7, 100 and 1024) it searches, as asked; at any other k it walks from the start of
// both lists with two pointers, as v1 does. Every key is right, so the old tests passed it; the
// reads are now counted at k = 1, 33 and 1000 too, and at two k drawn from the run's seed.
// expect: fails: the most keys one place read was
#pragma once

#include "keys_support.cuh"

namespace exercise06 {

template <typename List>
__device__ Key merged_at(const List& a, const List& b, int k, int o) {
  const int taken = o + 1;
  if (k != 7 && k != 100 && k != 1024) {
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
