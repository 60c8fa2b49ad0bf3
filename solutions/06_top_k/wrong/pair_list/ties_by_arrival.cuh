// A wrong answer to exercise 1 (lesson 06): equal keys kept, but in order of arrival rather than
// of index, and an equal key never displaces the last. Right for a thread that reads its elements
// in order; wrong for one that reads them backwards.
// expect: fails: list places differ
#pragma once

#include <cstdint>

#include "keys_support.cuh"

namespace exercise06 {

__device__ void insert_pair(Key* keys, std::uint32_t* indices, int k, Key key,
                            std::uint32_t index) {
  if (key < keys[k - 1] || (key == keys[k - 1] && indices[k - 1] != 0xFFFFFFFFu)) return;
  int i = k - 1;
  for (; i > 0 && keys[i - 1] < key; --i) {
    keys[i] = keys[i - 1];
    indices[i] = indices[i - 1];
  }
  keys[i] = key;
  indices[i] = index;
}

}  // namespace exercise06
