// What exercise 2 (lesson 04) gives the student's file: the entry of a chained table.
#pragma once

#include "layout.hpp"

namespace exercise04 {

// One entry: {key, value, next}, the book's, with the value a 32-bit index.
using lesson04::Entry;

}  // namespace exercise04
