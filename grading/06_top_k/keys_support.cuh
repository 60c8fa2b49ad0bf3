// What lesson 06's exercises give the student's file: keys. Every value becomes a 32-bit unsigned
// key that orders as the value does (course::order_key, common/bits.hpp, which the tests apply), so
// the exercises compare keys with < and ==.
#pragma once

#include "keys.hpp"

namespace exercise06 {

using lesson06::Key;         // a value's order key
using lesson06::kLowestKey;  // below every value's key: a list slot before anything is inserted

}  // namespace exercise06
