// What exercise 1 (lesson 05) gives the student's file: the course's compare-and-swap, which the
// tests watch: while their probe is armed, every call is counted against the pair of places it
// compares.
#pragma once

#include <cstddef>

#include "order.hpp"  // lesson05::order_pair

namespace grading {

// The probe (null pairs: off). pairs[i] counts the calls on (base[i], base[i + 1]); a call on any
// other two places is a stray.
struct PairProbe {
  const float* base = nullptr;
  std::size_t n = 0;
  unsigned* pairs = nullptr;
  unsigned* strays = nullptr;
};
__device__ PairProbe g_pair_probe;

}  // namespace grading

namespace exercise05 {

// Puts a and b in the course's order, IEEE 754's totalOrder (a the smaller; NaNs and signed zeros
// in their places).
__device__ inline void order_pair(float& a, float& b) {
  const grading::PairProbe probe = grading::g_pair_probe;
  if (probe.pairs != nullptr) {
    const std::ptrdiff_t i = &a - probe.base;
    if (&b == &a + 1 && i >= 0 && static_cast<std::size_t>(i) + 1 < probe.n) {
      atomicAdd(&probe.pairs[i], 1u);
    } else {
      atomicAdd(probe.strays, 1u);
    }
  }
  lesson05::order_pair(a, b);
}

}  // namespace exercise05
