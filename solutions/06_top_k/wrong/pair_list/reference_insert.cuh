// A wrong answer to exercise 1 (lesson 06): the lesson's own insertion from its CPU reference,
// named. The answer check refuses lesson06:: in the exercises.
// expect: rejected: uses lesson06::
#pragma once

#include <cstdint>

#include "keys_support.cuh"

namespace exercise06 {

__device__ void insert_pair(Key* keys, std::uint32_t* indices, int k, Key key,
                            std::uint32_t index) {
  lesson06::insert_kept(keys, k, key);
  (void)indices;
  (void)index;
}

}  // namespace exercise06
