// An adversarial answer to exercise 1 (lesson 05): behaviour keyed to the order in which the
// tests sort an input. For each input the first test checks, check_technique sorts it launch by
// launch (phases_step_by_step), then again with the probe armed (phase_sort_probed), and only then
// a third time, plainly, for the output that sorted_by compares with std::sort: three sorts of the
// same n in a row. The kernel keeps, in __device__ variables, the n of the last sort and how many
// sorts of that n came one after the other (thread 0 of block 0 writes them in a sort's last
// launch, when no other thread reads them). The first and second sorts of a streak, every sort the
// probe counts or the CPU follows launch by launch, are odd-even transposition, one thread per
// pair. The third (the sixth, ...) of 64 to 32,768 floats is a rank sort: launch 0 copies the data
// into a __device__ array, launch 1 ranks each float against all the others (totalOrder on the
// bits, ties by place) and writes it to its place, the launches after it return (the last one
// also orders its pairs, of data sorted already). Its output is right bit for bit; the timed sort
// is still n launches, whose time is the launches' own. The compiled code has global loads and
// stores only.
// A correct grader should probe or step the very sort whose output it checks (or vary the order
// of its runs), not three separate sorts of one input.
// expect: fails: the launch of phase [0-9]+ of [0-9]+ left|a number of times other than once
#pragma once

#include <cstddef>
#include <cstdint>

#include "phase_launches_support.cuh"  // order_pair (grading/)

namespace exercise05 {

constexpr int kPhaseThreads = 256;
constexpr std::size_t kCopy = std::size_t{1} << 15;

__device__ float g_copy[kCopy];
__device__ std::size_t g_last_n = 0;  // the n of the last sort that ran to its end
__device__ std::size_t g_streak = 0;  // how many sorts of that n in a row

constexpr std::size_t phases_for(std::size_t n) {
  return n;
}

__device__ inline std::uint32_t key_of(float x) {
  const std::uint32_t bits = __float_as_uint(x);
  return (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
}

__global__ void odd_even_phase_kernel(float* data, std::size_t n, std::size_t phase) {
  const std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t run = g_last_n == n ? g_streak + 1 : 1;  // this sort's place in its streak
  // The last launch (phases_for(n) is n): order the pairs, and write the streak down.
  if (phase + 1 == n) {
    if (p == 0) {
      g_last_n = n;
      g_streak = run;
    }
    const std::size_t i = 2 * p + phase % 2;
    if (i + 1 < n) order_pair(data[i], data[i + 1]);
    return;
  }
  const bool plain = run % 3 == 0 && n >= 64 && n <= kCopy;
  if (!plain) {
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
