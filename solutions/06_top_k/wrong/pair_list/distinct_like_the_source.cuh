// A wrong answer to exercise 1 (lesson 06): the source's rule, copied: a key already in the list is
// dropped. Right when every key is distinct; with duplicates the list loses equal keys that belong
// in it.
// expect: fails: list places differ
#pragma once

#include <cstdint>

#include "keys_support.cuh"

namespace exercise06 {

__device__ void insert_pair(Key* keys, std::uint32_t* indices, int k, Key key,
                            std::uint32_t index) {
  if (key <= keys[k - 1]) return;
  for (int i = 0; i < k; ++i) {
    if (keys[i] == key) return;
  }
  int i = k - 1;
  for (; i > 0 && keys[i - 1] < key; --i) {
    keys[i] = keys[i - 1];
    indices[i] = indices[i - 1];
  }
  keys[i] = key;
  indices[i] = index;
}

}  // namespace exercise06
