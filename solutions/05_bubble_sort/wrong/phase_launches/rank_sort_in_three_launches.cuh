// An adversarial answer to exercise 1 (lesson 05): not odd-even transposition at all, with the
// probe's counts kept. phases_for(n) returns 3 (n for n < 3, and n past 32,768 floats, where it
// falls back to plain transposition). Launch 0 copies the input into a __device__ array beside the
// data before its own pair's compare-and-swap; launch 1 ranks every float of that copy against all
// the others (totalOrder on the bits, ties by place: a rank sort, O(n) per thread) and writes it to
// its place in a second __device__ array; launch 2 copies the sorted floats back, each thread its
// own pair, before its compare-and-swap. Every launch still makes exactly its phase's
// compare-and-swaps, one per pair of its parity, by the pair's own thread, so the probe sees
// "P phases, each pair once per phase of its parity"; the tests never ask that P be enough phases
// for odd-even transposition (n), only that the output be sorted, which it is, bit for bit. Three
// launches instead of n: hundreds of times faster than the model answer. The compiled code has
// global loads and stores only: no barrier, atomic, fence, shared memory or warp collective.
// expect: fails: odd-even transposition needs [0-9]+ phases
#pragma once

#include <cstddef>

#include "phase_launches_support.cuh"

namespace exercise05 {

constexpr int kPhaseThreads = 256;
constexpr std::size_t kStaged = std::size_t{1} << 15;

__device__ float g_snapshot[kStaged];
__device__ float g_ranked[kStaged];

constexpr std::size_t phases_for(std::size_t n) {
  return n > kStaged ? n : (n < 3 ? n : 3);
}

__device__ inline unsigned order_bits(float f) {
  const unsigned u = __float_as_uint(f);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

__global__ void odd_even_phase_kernel(float* data, std::size_t n, std::size_t phase) {
  const std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const bool staged = n <= kStaged;
  if (staged && phase == 0) {  // keep a copy of the input, own pair first
    if (2 * p < n) g_snapshot[2 * p] = data[2 * p];
    if (2 * p + 1 < n) g_snapshot[2 * p + 1] = data[2 * p + 1];
  } else if (staged && phase == 1) {  // rank sort the copy
    for (std::size_t e = 2 * p; e < 2 * p + 2 && e < n; ++e) {
      const float v = g_snapshot[e];
      const unsigned key = order_bits(v);
      std::size_t rank = 0;
      for (std::size_t j = 0; j < n; ++j) {
        const unsigned other = order_bits(g_snapshot[j]);
        rank += other < key || (other == key && j < e);
      }
      g_ranked[rank] = v;
    }
  } else if (staged && phase == 2) {  // the sorted floats back, own pair only
    if (2 * p < n) data[2 * p] = g_ranked[2 * p];
    if (2 * p + 1 < n) data[2 * p + 1] = g_ranked[2 * p + 1];
  }
  const std::size_t i = 2 * p + phase % 2;
  if (i + 1 < n) order_pair(data[i], data[i + 1]);
}

}  // namespace exercise05
