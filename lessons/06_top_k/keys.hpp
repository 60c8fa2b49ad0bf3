// Lesson 06's keys: every value becomes a 32-bit unsigned key that orders as the value does
// (course::order_key, common/bits.hpp), so every version compares keys. Shared by reference.hpp,
// the kernels and the exercises (which are given the keys, not the lists or passes).
#pragma once

#include <cstdint>

namespace lesson06 {

using Key = std::uint32_t;

// The lowest key: the value a list slot holds before anything is inserted (INT_MIN for ints; for
// floats the NaN with every bit set, the first float in totalOrder).
constexpr Key kLowestKey = 0;
// The key of the value 0 (int 0 and +0.0f alike): what the source's `{INT_MIN}` leaves in every
// slot but the first.
constexpr Key kZeroKey = 0x80000000u;

}  // namespace lesson06
