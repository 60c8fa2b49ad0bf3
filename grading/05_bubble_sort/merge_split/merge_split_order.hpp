// The orders the tests of exercise 2 (lesson 05) give before(), for the CPU and the GPU: the
// course's (IEEE 754's totalOrder), or a scrambled one drawn from the run's seed. Under a
// scrambled order, a float's place is a mix of its totalOrder key with the drawn key, a bijection
// with no simple rule (neither totalOrder nor its reverse, nor any fixed turn of the bits), and
// last_float() is a NaN kept for padding that sorts after every other float. An answer that
// compares floats only with before() and pads only with last_float() sorts in whichever order is
// given; one that compares with an order of its own, or asks before() a few questions and then
// follows a rule of its own, does not.
#pragma once

#include <cstdint>

#include "order.hpp"  // lesson05::TotalOrder, course::order_key

namespace grading05 {

// The padding under a scrambled order: a quiet NaN no test input holds.
constexpr std::uint32_t kScrambledPad = 0x7FBADBADu;

// A float's place under the order of `key` (0: totalOrder). The key has 64 bits (the tests set
// two of them), so that no search over keys can find it from a few answers of before().
COURSE_HOST_DEVICE inline std::uint64_t order_place(float x, std::uint64_t key) {
  std::uint32_t k = course::order_key(x);
  if (key == 0) return k;
  if (course::bits_of(x) == kScrambledPad) return std::uint64_t{1} << 32;
  const auto low = static_cast<std::uint32_t>(key);
  const auto high = static_cast<std::uint32_t>(key >> 32);
  k ^= low;
  k *= 0x9E3779B1u;
  k ^= k >> 15;
  k *= high | 1u;
  k ^= k >> 13;
  k += high;
  k *= (low >> 1) | 1u;
  k ^= k >> 16;
  return k;
}

// The order of `key` as a comparison, for std::sort.
struct KeyedOrder {
  std::uint64_t key = 0;
  COURSE_HOST_DEVICE bool operator()(float a, float b) const {
    return order_place(a, key) < order_place(b, key);
  }
};

// What last_float() is under the order of `key`.
COURSE_HOST_DEVICE inline float last_float_of(std::uint64_t key) {
  return key == 0 ? lesson05::last_float() : course::from_bits<float>(kScrambledPad);
}

}  // namespace grading05
