// A wrong answer to exercise 2 (lesson 06): a bug the old inputs never reached. The search asks
// whether a[i] comes first as a[i] + 1 > b[o - i], which is a[i] >= b[o - i] for every key but
// 0xFFFFFFFF, where the sum wraps to 0. The old lists' keys stayed below 2^31 + 2^20; the keys now
// reach both ends of the 32 bits.
// expect: fails: elements differ
#pragma once

#include "keys_support.cuh"

namespace exercise06 {

template <typename List>
__device__ Key merged_at(const List& a, const List& b, int k, int o) {
  const int taken = o + 1;
  int low = taken > k ? taken - k : 0;
  int high = taken < k ? taken : k;
  while (low < high) {
    const int i = (low + high) / 2;
    if (a[i] + 1 > b[taken - 1 - i]) {
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
