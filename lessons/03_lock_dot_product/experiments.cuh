// Lesson 03's experiments, run after the table when asked. --show-race runs the seed's lock at
// grids where an SM holds more than one block, and counts the wrong results; --lock-sweep times the
// lock-finished versions against atomicAdd as the grid grows (exercise 3).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"

namespace lesson03 {

// The seed's lock (v0), the same with the sum read from L2, and the correct lock (v1a): 20 runs
// each at grids from the seed's 32 blocks to 8 blocks per SM, on the seed's input. Prints how many
// runs were wrong, and by how much at worst; returns whether v1a was right every time.
inline bool show_race(std::size_t n, const Inputs& current, Dist dist,
                      const DeviceInputs& current_on_gpu) {
  constexpr int kRuns = 20;
  const int sms = course::sm_count();
  // Every product of the seed's input is positive: a lost update leaves the result too small.
  const bool is_seed = dist == Dist::seed;
  const Inputs other = is_seed ? Inputs{} : make_inputs(n, Dist::seed, 0);
  const Inputs& in = is_seed ? current : other;
  const DeviceInputs other_on_gpu(other);
  const float* a = is_seed ? current_on_gpu.a.data() : other_on_gpu.a.data();
  const float* b = is_seed ? current_on_gpu.b.data() : other_on_gpu.b.data();
  const Reference ref = reference_dot(in.a.data(), in.b.data(), n);
  Workspace ws;
  course::DeviceBuffer<float> c(1);

  std::printf(
      "\nthe race: %d runs per grid on the seed's input (n = %zu); a run is wrong when it is off "
      "by more than\nits error bound; the worst error is relative to the double dot product\n",
      kRuns, n);
  const Run runs[] = {dot_seed_lock<false>, dot_seed_lock<true>, dot_lock};
  std::printf("%7s %7s | %-27s | %-27s | %-27s\n", "blocks", "per SM", "v0, the seed's lock",
              "v0, c read from L2", "v1a, the correct lock");
  bool correct_lock_ok = true;
  for (int blocks : {kSeedBlocks, sms, 2 * sms, 8 * sms}) {
    std::printf("%7d %7.2f", blocks, static_cast<double>(blocks) / sms);
    for (int which = 0; which < 3; ++which) {
      const double bound = dot_error_bound(
          n, ref.magnitudes,
          Shape{static_cast<std::size_t>(blocks) * kThreads, static_cast<std::size_t>(blocks)},
          true);
      int wrong = 0;
      double worst = 0;
      for (int r = 0; r < kRuns; ++r) {
        c.fill_bytes(0xFF);
        runs[which](a, b, n, c.data(), ws, {nullptr, blocks});
        const float got = c.download()[0];
        if (!dot_ok(got, ref.dot, bound)) ++wrong;
        worst = std::max(worst, std::fabs(static_cast<double>(got) - ref.dot) / std::fabs(ref.dot));
      }
      if (which == 2 && wrong > 0) correct_lock_ok = false;
      std::printf(" | %-27s",
                  course::format("%2d of %d wrong, worst %.2g", wrong, kRuns, worst).c_str());
    }
    std::printf("\n");
  }
  return correct_lock_ok;
}

// Exercise 3: what finishing under a lock costs as the grid grows.
inline void print_lock_sweep(const float* a, const float* b, std::size_t n, int reps) {
  Workspace ws;
  course::DeviceBuffer<float> c(1);
  std::printf(
      "\nlock sweep: median ms of v1a (every block takes the lock), v1b (the holder adds for the\n"
      "waiting) and v2 (atomicAdd), by grid (blocks of %d threads)\n%8s %12s %12s %12s\n",
      kThreads, "blocks", "v1a", "v1b", "v2");
  for (int blocks = 32; blocks <= kMaxBlocks; blocks *= 2) {
    std::printf("%8d", blocks);
    for (Run run : {dot_lock, dot_combining_lock, dot_atomic_add}) {
      const course::Timing t = course::time_gpu(
          [&] {
            run(a, b, n, c.data(), ws, {nullptr, blocks});
          },
          reps, 1, nullptr, course::Lesson::kBudgetMs);
      std::printf(" %12.4f", t.median_ms);
    }
    std::printf("\n");
  }
}

}  // namespace lesson03
