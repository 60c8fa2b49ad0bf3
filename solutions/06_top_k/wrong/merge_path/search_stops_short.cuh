// A wrong answer to exercise 2 (lesson 06): an off-by-one in the search's range, whose top is one
// short: when all of a's first o + 1 keys come before b's (a's keys all larger), the search cannot
// say so, and the place gets one of b's keys.
// expect: fails: elements differ
#pragma once

#include "keys_support.cuh"

namespace exercise06 {

template <typename List>
__device__ Key merged_at(const List& a, const List& b, int k, int o) {
  const int taken = o + 1;
  int low = taken > k ? taken - k : 0;
  int high = (taken < k ? taken : k) - 1;
  if (high < low) high = low;
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

}  // namespace exercise06
