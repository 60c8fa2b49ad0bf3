// What lesson 06's exercises give the student's file: keys. Every value becomes a 32-bit unsigned
// key that orders as the value does (course::order_key, common/bits.hpp, which the tests apply), so
// the exercises compare keys with < and ==.
#pragma once

#include <cstdint>

namespace exercise06 {

using Key = std::uint32_t;

// The lowest key, below every value's: a list slot before anything is inserted.
constexpr Key kLowestKey = 0;

}  // namespace exercise06
