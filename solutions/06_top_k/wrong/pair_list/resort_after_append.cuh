// A wrong answer to exercise 1 (lesson 06): the technique skipped where only speed shows it. A pair
// better than the last replaces it, and then the whole list is sorted again by a bubble sort of its
// k pairs, about k^2 / 2 compare-and-swaps, where an insertion moves at most k - 1 pairs. Every
// list comes out right; with k = 64 and keys that each beat the whole list, it takes dozens of
// times as long.
// expect: slow
#pragma once

#include <cstdint>

#include "keys_support.cuh"

namespace exercise06 {

__device__ inline bool better(Key a, std::uint32_t ia, Key b, std::uint32_t ib) {
  return a > b || (a == b && ia < ib);
}

__device__ void insert_pair(Key* keys, std::uint32_t* indices, int k, Key key,
                            std::uint32_t index) {
  if (!better(key, index, keys[k - 1], indices[k - 1])) return;
  keys[k - 1] = key;
  indices[k - 1] = index;
  for (int pass = 0; pass < k - 1; ++pass) {
    for (int i = 0; i + 1 < k - pass; ++i) {
      if (better(keys[i + 1], indices[i + 1], keys[i], indices[i])) {
        const Key t = keys[i];
        keys[i] = keys[i + 1];
        keys[i + 1] = t;
        const std::uint32_t u = indices[i];
        indices[i] = indices[i + 1];
        indices[i + 1] = u;
      }
    }
  }
}

}  // namespace exercise06
