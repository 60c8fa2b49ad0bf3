// An adversarial answer to exercise 1 (lesson 06): equal keys placed by the direction the thread
// reads in, not by comparing indices one by one. The harness's threads read their elements with a
// grid stride, forwards or backwards, so a thread's indices always arrive in increasing or in
// decreasing order. This insertion moves the worse keys (and the empty slots) down, then looks at
// the nearest equal key only: if the new index is below it the thread must be reading backwards,
// and the new pair goes above the whole run of equal keys; otherwise below it. Right whenever a
// thread's indices arrive in order (every input the tests give); wrong when they arrive in any
// other order: with (5, 2) and (5, 9) in the list, (5, 7) goes above both.
// How a correct grader should catch it: a harness whose threads visit their elements in a shuffled
// order, so that equal keys arrive with indices neither increasing nor decreasing.
// expect: fails: list places differ
#pragma once

#include <cstdint>

#include "keys_support.cuh"  // Key, kLowestKey (grading/)

namespace exercise06 {

__device__ void insert_pair(Key* keys, std::uint32_t* indices, int k, Key key,
                            std::uint32_t index) {
  const std::uint32_t kEmpty = 0xFFFFFFFFu;
  if (key < keys[k - 1] || (key == keys[k - 1] && index >= indices[k - 1])) return;
  int i = k - 1;
  // Worse keys, and empty slots, move down.
  while (i > 0 && (keys[i - 1] < key || (keys[i - 1] == key && indices[i - 1] == kEmpty))) {
    keys[i] = keys[i - 1];
    indices[i] = indices[i - 1];
    --i;
  }
  // Equal keys came in one direction: a lower index than the nearest one means all of them.
  if (i > 0 && keys[i - 1] == key && index < indices[i - 1]) {
    while (i > 0 && keys[i - 1] == key) {
      keys[i] = keys[i - 1];
      indices[i] = indices[i - 1];
      --i;
    }
  }
  keys[i] = key;
  indices[i] = index;
}

}  // namespace exercise06
