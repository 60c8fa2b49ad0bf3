// An adversarial answer to exercise 1 (lesson 06): the insertion written only where it is timed.
// A pair that beats the head of the list is inserted as asked (every pair moves down one place);
// any other pair that beats the last replaces it, and the whole list is then bubble-sorted again,
// about k^2 / 2 compare-and-swaps, where an insertion moves at most k - 1 pairs. Every list is
// right. The [timing] case gives each thread rising keys that each beat the whole list, so every
// timed key takes the head path; the re-sort runs only on the untimed check inputs, where most
// keys are dropped at the first comparison anyway.
// How a correct grader should catch it: time keys that land in the middle or at the end of a full
// list of 64 (not only at its head), where the re-sort costs dozens of times the insertion.
// expect: slow
#pragma once

#include <cstdint>

#include "keys_support.cuh"  // Key, kLowestKey (grading/)

namespace exercise06 {

__device__ inline bool pair_better(Key ka, std::uint32_t ia, Key kb, std::uint32_t ib) {
  return ka > kb || (ka == kb && ia < ib);
}

__device__ void insert_pair(Key* keys, std::uint32_t* indices, int k, Key key,
                            std::uint32_t index) {
  if (!pair_better(key, index, keys[k - 1], indices[k - 1])) return;
  if (pair_better(key, index, keys[0], indices[0])) {  // a new best: to the head
    for (int i = k - 1; i > 0; --i) {
      keys[i] = keys[i - 1];
      indices[i] = indices[i - 1];
    }
    keys[0] = key;
    indices[0] = index;
    return;
  }
  // Anywhere else: replace the last, then sort the list again.
  keys[k - 1] = key;
  indices[k - 1] = index;
  for (int pass = 0; pass < k - 1; ++pass) {
    for (int i = 0; i + 1 < k - pass; ++i) {
      if (pair_better(keys[i + 1], indices[i + 1], keys[i], indices[i])) {
        const Key tk = keys[i];
        const std::uint32_t ti = indices[i];
        keys[i] = keys[i + 1];
        indices[i] = indices[i + 1];
        keys[i + 1] = tk;
        indices[i + 1] = ti;
      }
    }
  }
}

}  // namespace exercise06
