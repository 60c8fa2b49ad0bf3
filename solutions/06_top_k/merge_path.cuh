// Exercise 2 (lesson 06), solved: a binary search for where the first o + 1 keys of the merge
// split between the two lists, then the last of them.
#pragma once

#include "keys_support.cuh"  // Key (grading/)

namespace exercise06 {

// Key o (0 <= o < k) of the merge of a[0, k) and b[0, k), both in descending order: the (o + 1)-th
// largest of the 2k keys, duplicates kept. List is anything with a[i] for i in [0, k), such as a
// const Key*; the tests pass one that counts its reads: O(log k) of them, no walk from the start.
template <typename List>
__device__ Key merged_at(const List& a, const List& b, int k, int o) {
  const int taken = o + 1;  // the first o + 1 keys: i from a, taken - i from b
  int low = taken > k ? taken - k : 0;
  int high = taken < k ? taken : k;
  while (low < high) {  // the smallest i for which a[i] comes after b's taken - i keys
    const int i = (low + high) / 2;
    if (a[i] >= b[taken - 1 - i]) {  // a[i] comes before b's last: more come from a
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
  return last_a < last_b ? last_a : last_b;  // the later of the two in the merge
}

}  // namespace exercise06
