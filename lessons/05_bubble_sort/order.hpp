// Lesson 05's order, for the CPU and the GPU: IEEE 754's totalOrder (reference.hpp says why), the
// one compare-and-swap every version is made of, and the float that sorts last. Shared by
// reference.hpp, the kernels (kernels/) and the exercises (which are given the order, not the
// sorts).
#pragma once

#include "bits.hpp"

namespace lesson05 {

// The float's place in totalOrder is course::order_key (common/bits.hpp): a < b in totalOrder
// exactly when order_key(a) < order_key(b); course::from_order_key<float> turns a key back.

// "a comes before b": the comparison every version of the course sorts with.
struct TotalOrder {
  COURSE_HOST_DEVICE bool operator()(float a, float b) const {
    return course::order_key(a) < course::order_key(b);
  }
};

// Puts a and b in totalOrder: the one step every version of the course is made of.
COURSE_HOST_DEVICE inline void order_pair(float& a, float& b) {
  if (TotalOrder{}(b, a)) {
    const float t = a;
    a = b;
    b = t;
  }
}

// The source's comparison, a < b: wrong with NaNs, blind to the sign of zero (--source-compare).
struct SourceLess {
  COURSE_HOST_DEVICE bool operator()(float a, float b) const { return a < b; }
};

// The last float in totalOrder: the NaN 0x7FFFFFFF (key 0xFFFFFFFF). Padding with it, not with
// +inf, keeps a real +NaN from sorting behind a pad and being cut off with it.
COURSE_HOST_DEVICE inline float last_float() {
  return course::from_bits<float>(0x7FFFFFFFu);
}

}  // namespace lesson05
