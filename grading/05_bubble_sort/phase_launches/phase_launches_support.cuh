// What exercise 1 (lesson 05) gives the student's file: the course's compare-and-swap, which the
// tests watch: while their probe is armed, every call is counted against the pair of places it
// compares, the phase of the launch that made it, and the thread that made it, and whether it
// swapped the two.
#pragma once

#include <cstddef>

#include "order.hpp"  // lesson05::order_pair

namespace grading {

// The probe (null pairs: off). pairs[i] counts the calls on (base[i], base[i + 1]); a call on any
// other two places is a stray. The harness sets `phase` before each launch; a call on a pair whose
// i has not the parity of the phase is off_phase, and one made by a thread other than the pair's
// own (thread p of the grid takes the pair at 2p + phase % 2) is other_thread.
struct PairProbe {
  const float* base = nullptr;
  std::size_t n = 0;
  unsigned* pairs = nullptr;
  unsigned* strays = nullptr;
  unsigned* off_phase = nullptr;
  unsigned* other_thread = nullptr;
  std::size_t phase = 0;
  // Null, or n counters: the calls on (base[i], base[i + 1]) that swapped the two (so that a call
  // on a pair put in order beforehand by some other code shows as one that swapped nothing).
  unsigned* swaps = nullptr;
};
__device__ PairProbe g_pair_probe;

}  // namespace grading

namespace exercise05 {

// Puts a and b in the course's order, IEEE 754's totalOrder (a the smaller; NaNs and signed zeros
// in their places).
__device__ inline void order_pair(float& a, float& b) {
#ifndef GRADING_SASS  // the compiled-code check reads the answer's own instructions, not the
                      // probe's
  const grading::PairProbe probe = grading::g_pair_probe;
  if (probe.pairs != nullptr) {
    const std::ptrdiff_t i = &a - probe.base;
    if (&b == &a + 1 && i >= 0 && static_cast<std::size_t>(i) + 1 < probe.n) {
      const std::size_t pair = static_cast<std::size_t>(i);
      atomicAdd(&probe.pairs[pair], 1u);
      if (pair % 2 != probe.phase % 2) atomicAdd(probe.off_phase, 1u);
      const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
      if (thread != pair / 2) atomicAdd(probe.other_thread, 1u);
      if (probe.swaps != nullptr && lesson05::TotalOrder{}(b, a)) atomicAdd(&probe.swaps[pair], 1u);
    } else {
      atomicAdd(probe.strays, 1u);
    }
  }
#endif
  lesson05::order_pair(a, b);
}

}  // namespace exercise05
