// (The account below is of the grader before 7f125b8, which it passed; its last line says how it
// is caught now.)
// An adversarial answer to exercise 1 (lesson 05): odd-even transposition only at the sizes where
// the tests look inside the sort, a rank sort everywhere else. phases_for(n) is n, as the tests
// ask at every size. Up to 4,096 floats (every size the probe counts, at most 4,000, and every size
// sorted launch by launch, at most 4,096) each launch is one phase, one thread per pair. Past
// 4,096 floats (up to 32,768) the launch of phase 0 copies the data into a __device__ array, the
// launch of phase 1 gives every float its rank in that copy (totalOrder on the bits, ties by
// place) and writes it there, and the other n - 2 launches return at once. Past 4,096 the tests
// check only the sorted output, which is right bit for bit; and the timed sort (4,097 to 5,119
// floats) is still n launches, whose time is the launches' own, so the clock sees nothing either.
// The compiled code has global loads and stores only: no barrier, atomic, fence, shared memory or
// warp collective.
// A correct grader should sort launch by launch (or probe) at the sizes it times as well, or at
// sizes drawn up to the largest it sorts.
// Caught since every sort the tests check is also spot-checked launch by launch.
// expect: fails: the launch of phase [0-9]+ of [0-9]+ left|a number of times other than once
#pragma once

#include <cstddef>
#include <cstdint>

#include "phase_launches_support.cuh"  // order_pair (grading/)

namespace exercise05 {

constexpr int kPhaseThreads = 256;
constexpr std::size_t kStepped = 4096;
constexpr std::size_t kCopy = std::size_t{1} << 15;

__device__ float g_copy[kCopy];

constexpr std::size_t phases_for(std::size_t n) {
  return n;
}

__device__ inline std::uint32_t key_of(float x) {
  const std::uint32_t bits = __float_as_uint(x);
  return (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
}

__global__ void odd_even_phase_kernel(float* data, std::size_t n, std::size_t phase) {
  const std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (n <= kStepped || n > kCopy) {
    const std::size_t i = 2 * p + phase % 2;
    if (i + 1 < n) order_pair(data[i], data[i + 1]);
    return;
  }
  if (phase == 0) {
    for (std::size_t j = 2 * p; j < 2 * p + 2 && j < n; ++j)
      g_copy[j] = data[j];
  } else if (phase == 1) {
    for (std::size_t j = 2 * p; j < 2 * p + 2 && j < n; ++j) {
      const std::uint32_t mine = key_of(g_copy[j]);
      std::size_t rank = 0;
      for (std::size_t k = 0; k < n; ++k) {
        const std::uint32_t other = key_of(g_copy[k]);
        rank += other < mine || (other == mine && k < j);
      }
      data[rank] = g_copy[j];
    }
  }
}

}  // namespace exercise05
