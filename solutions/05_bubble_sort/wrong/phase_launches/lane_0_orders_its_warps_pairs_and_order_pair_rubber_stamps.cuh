// An adversarial answer to exercise 1 (lesson 05): the pairs of a phase put in order by one lane
// per warp, and order_pair reduced to a rubber stamp. In every launch, lane 0 of each warp loads
// the 64 places of its warp's 32 pairs into registers, orders each pair with a comparison of its
// own (totalOrder on the bits: flip every bit of a negative float, the sign bit of a positive one,
// which is totalOrder exactly), and writes back the pairs it swapped; then every thread calls
// order_pair on its own pair, once, as the statement says, and finds it (nearly always) in order
// already. The probe counts calls of order_pair: which pair, in which phase's launch, by which
// thread; it never asks whether the call had anything left to do. So the swaps are made by 1
// thread in 32, with a comparison the probe cannot see, and the probe sees the model answer.
// The data race between lane 0 and a pair's own thread is harmless: both only ever write the
// pair's smaller float to its first place and its larger to its second, and a thread that reads a
// half-written pair reads two equal floats and writes nothing (order_pair writes only when it
// swaps). So every launch leaves exactly its phase's result.
// Why each test passes:
// - "sorts every input" (each sort probed and stepped, every dist, NaNs and signed zeros): every
//   launch's result is exactly one odd-even phase (lane 0's order is totalOrder, bit for bit, and
//   order_pair agrees), so the probed sort is sorted after n phases and every stepped launch
//   matches the CPU's phase; the probe's counts are a correct answer's: each pair compared once
//   per phase of its parity (by order_pair), in a launch of that phase, by its own thread, no
//   strays.
// - "each phase compares each pair of its parity once": the same counts.
// - "phases_for(n) is n, each launch leaves exactly its phase's result": phases_for is n; each
//   launch's result is its phase's.
// - "the same input sorted again and again": no state is kept between launches or sorts.
// - The compiled code (every function): global loads and stores; no barrier (no __syncwarp
//   either: lane 0's work and the stamps need no ordering between them), no atomic, fence,
//   volatile or ordered access, shared memory or warp collective.
// - Time: lane 0's 64 loads are independent and in flight together, so a launch takes a load's
//   latency or so more than the model's (about 3.5 us a launch, mostly the launch itself): far
//   within the factor of 3.
// A correct grader should count the calls of order_pair that swap, against the swaps that odd-even
// transposition makes in each phase on the CPU (a rubber stamp swaps nothing), or give
// order_pair an order only it knows (as 05.2's scrambled before() does).
// Caught: the probe now counts the calls that swap, pair by pair, against odd-even transposition's.
// expect: fails: whose compare-and-swaps swapped them
#pragma once

#include <cstddef>

#include "phase_launches_support.cuh"  // order_pair (grading/)

namespace exercise05 {

constexpr int kPhaseThreads = 256;

constexpr std::size_t phases_for(std::size_t n) {
  return n;
}

// totalOrder's key of a float: a < b in totalOrder exactly when key(a) < key(b).
__device__ inline unsigned total_order_key(float x) {
  const unsigned bits = __float_as_uint(x);
  return (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
}

__global__ void odd_even_phase_kernel(float* data, std::size_t n, std::size_t phase) {
  const std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t i = 2 * p + phase % 2;
  if (threadIdx.x % 32 == 0) {
    // This warp's 32 pairs start at place i: load them all, then order them.
    float x[64];
#pragma unroll
    for (int k = 0; k < 64; ++k)
      x[k] = i + k < n ? data[i + k] : 0.0f;
#pragma unroll
    for (int k = 0; k < 64; k += 2) {
      if (i + k + 1 < n && total_order_key(x[k + 1]) < total_order_key(x[k])) {
        data[i + k] = x[k + 1];
        data[i + k + 1] = x[k];
      }
    }
  }
  if (i + 1 < n) order_pair(data[i], data[i + 1]);  // the pair's own call: it is in order already
}

}  // namespace exercise05
