// A wrong answer to exercise 1 (lesson 06): behaviour keyed to the tests. For the k the old tests
// used (1, 2, 3, 5, 10, 40, 48 and 64) it is the model answer; for any other k it keeps equal keys
// in order of arrival, as ties_by_arrival does, which is wrong for a thread that reads backwards.
// The old tests passed it; k is now drawn from the run's seed too, and 31, 32, 33 and 63 are tried
// every run.
// expect: fails: list places differ
#pragma once

#include <cstdint>

#include "keys_support.cuh"

namespace exercise06 {

__device__ inline bool better(Key a, std::uint32_t ia, Key b, std::uint32_t ib) {
  return a > b || (a == b && ia < ib);
}

__device__ void insert_pair(Key* keys, std::uint32_t* indices, int k, Key key,
                            std::uint32_t index) {
  const bool tested =
      k == 1 || k == 2 || k == 3 || k == 5 || k == 10 || k == 40 || k == 48 || k == 64;
  if (tested) {
    if (!better(key, index, keys[k - 1], indices[k - 1])) return;
  } else if (key < keys[k - 1] || (key == keys[k - 1] && indices[k - 1] != 0xFFFFFFFFu)) {
    return;
  }
  int i = k - 1;
  for (; i > 0 && (tested ? better(key, index, keys[i - 1], indices[i - 1]) : keys[i - 1] < key);
       --i) {
    keys[i] = keys[i - 1];
    indices[i] = indices[i - 1];
  }
  keys[i] = key;
  indices[i] = index;
}

}  // namespace exercise06
