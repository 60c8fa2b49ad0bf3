// A wrong answer to exercise 2 (lesson 06): v1's two pointers, walked from the start of both lists
// up to place o. Every key is right; place o reads up to 2(o + 1) keys, where a binary search
// reads about 2 log2(k).
// expect: fails: the most keys one place read was
#pragma once

#include "keys_support.cuh"

namespace exercise06 {

template <typename List>
__device__ Key merged_at(const List& a, const List& b, int k, int o) {
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

}  // namespace exercise06
