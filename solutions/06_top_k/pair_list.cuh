// Exercise 1 (lesson 06), solved: the source's insertion, on (key, index) pairs, with ties broken
// by the index and duplicates kept.
#pragma once

#include <cstdint>

#include "keys_support.cuh"  // Key, kLowestKey (grading/)

namespace exercise06 {

// Whether (key a, index ia) is better than (key b, index ib): a larger key, or an equal key with a
// lower index.
__device__ inline bool better(Key a, std::uint32_t ia, Key b, std::uint32_t ib) {
  return a > b || (a == b && ia < ib);
}

// keys[0, k) and indices[0, k) hold the k best (key, index) pairs seen so far, best first: a larger
// key is better, and of two equal keys the one with the lower index. Puts (key, index) in at its
// place and lets the last pair drop out, unless it is not better than the last pair. The lists
// start full of (kLowestKey, 0xFFFFFFFF), which any pair beats.
__device__ void insert_pair(Key* keys, std::uint32_t* indices, int k, Key key,
                            std::uint32_t index) {
  if (!better(key, index, keys[k - 1], indices[k - 1])) return;
  int i = k - 1;
  for (; i > 0 && better(key, index, keys[i - 1], indices[i - 1]); --i) {
    keys[i] = keys[i - 1];  // a worse pair moves down one place
    indices[i] = indices[i - 1];
  }
  keys[i] = key;
  indices[i] = index;
}

}  // namespace exercise06
