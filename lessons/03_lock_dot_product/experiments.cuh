// Lesson 03's experiments, run after the table when asked. --show-race runs the source's lock at
// grids where an SM holds more than one block, and counts the wrong results; --lock-sweep times the
// lock-finished versions against atomicAdd as the grid grows (exercise 3).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"

namespace lesson03 {

// What an SM's L1 keeps, the one fact the write-up's picture of the race needs beyond the table
// above: one thread on each of two SMs. The first reads x (its SM's L1 now holds the line) and,
// in the second case, writes it; the second then changes x with an atomic, which L2 performs; the
// first reads x again, once as an ordinary load and once through L2 (__ldcg). Every wait gives
// up after about a second, so two blocks that cannot run at once report that instead of hanging.
namespace l1_probe {

constexpr int kBefore = 100;                    // x before either thread touches it
constexpr int kOwnWrite = 5;                    // what the first thread writes, in the second case
constexpr int kFromOther = 7;                   // what the other SM's atomic writes
constexpr long long kPatience = 2'000'000'000;  // clock cycles, about a second

// Ordinary global load and store, written in PTX so that the compiler cannot reuse an earlier
// load or forward the store: the loads must reach the memory system for the probe to mean anything.
__device__ inline int load(const int* p) {
  int v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ inline void store(int* p, int v) {
  asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ inline bool wait_for(const volatile int* flag) {
  const long long start = clock64();
  while (*flag == 0)
    if (clock64() - start > kPatience) return false;
  return true;
}
__device__ inline unsigned sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

struct Seen {
  int first;          // the first ordinary load (kept: a load whose value is never used is dropped)
  int again;          // the ordinary load after the other SM's atomic
  int again_from_l2;  // the same through L2
  unsigned sm[2];
  int gave_up;
};

__global__ void probe_kernel(int* x, volatile int* flags, bool own_write, Seen* seen) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    seen->first = load(x);  // the line of x comes into this SM's L1
    if (own_write) store(x, kOwnWrite);
    flags[0] = 1;
    if (!wait_for(&flags[1])) seen->gave_up = 1;
    seen->again = load(x);
    seen->again_from_l2 = __ldcg(x);
    seen->sm[0] = sm_id();
  } else {
    if (!wait_for(&flags[0])) seen->gave_up = 1;
    __nanosleep(100000);  // let the first thread's write reach L2 before the atomic
    atomicExch(x, kFromOther);
    flags[1] = 1;
    seen->sm[1] = sm_id();
  }
}

inline void print() {
  course::DeviceBuffer<int> x(1), flags(2);
  course::DeviceBuffer<Seen> seen(1);
  std::printf(
      "\nwhat an SM's L1 keeps: x = %d; a thread on one SM reads it, another SM's atomic "
      "sets it to %d,\nthen the first thread reads it again\n",
      kBefore, kFromOther);
  for (const bool own_write : {false, true}) {
    x.upload(std::vector<int>{kBefore});
    flags.upload(std::vector<int>{0, 0});
    seen.upload(std::vector<Seen>{Seen{}});
    probe_kernel<<<2, 32>>>(x.data(), flags.data(), own_write, seen.data());
    CUDA_CHECK_LAUNCH();
    const Seen s = seen.download()[0];
    const std::string what = own_write ? course::format("after writing x = %d itself", kOwnWrite)
                                       : std::string("having only read x");
    if (s.gave_up != 0 || s.sm[0] == s.sm[1] || s.first != kBefore) {
      std::printf("  %-27s: not measured (the two blocks did not run at once on two SMs)\n",
                  what.c_str());
      continue;
    }
    std::printf("  %-27s: an ordinary load reads %d, a load through L2 (__ldcg) %d\n", what.c_str(),
                s.again, s.again_from_l2);
  }
}

}  // namespace l1_probe

// The source's lock (v0), the same with the sum read from L2, and the correct lock (v1a): 20 runs
// each at grids from the source's 32 blocks to 8 blocks per SM, on the source's input. Prints how
// many runs were wrong, and by how much at worst; returns whether v1a was right every time.
inline bool show_race(std::size_t n, const Inputs& current, Dist dist,
                      const DeviceInputs& current_on_gpu) {
  constexpr int kRuns = 20;
  const int sms = course::sm_count();
  // Every product of the source's input is positive: a lost update leaves the result too small.
  const bool is_source = dist == Dist::source;
  const Inputs other = is_source ? Inputs{} : make_inputs(n, Dist::source, 0);
  const Inputs& in = is_source ? current : other;
  const DeviceInputs other_on_gpu(other);
  const float* a = is_source ? current_on_gpu.a.data() : other_on_gpu.a.data();
  const float* b = is_source ? current_on_gpu.b.data() : other_on_gpu.b.data();
  const Reference ref = reference_dot(in.a.data(), in.b.data(), n);
  Workspace ws;
  course::DeviceBuffer<float> c(1);

  std::printf(
      "\nthe race: %d runs per grid on the source's input (n = %zu); a run is wrong when it is off "
      "by more than\nits error bound; the worst error is relative to the double dot product\n",
      kRuns, n);
  const Run runs[] = {dot_source_lock<false>, dot_source_lock<true>, dot_lock};
  std::printf("%7s %7s | %-27s | %-27s | %-27s\n", "blocks", "per SM", "v0, the source's lock",
              "v0, c read from L2", "v1a, the correct lock");
  bool correct_lock_ok = true;
  for (int blocks : {kSourceBlocks, sms, 2 * sms, 8 * sms}) {
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
  l1_probe::print();
  return correct_lock_ok;
}

// Exercise 3: what finishing under a lock costs as the grid grows, each run after the L2 flush, as
// the table's rows (one warm-up; a slow grid stops at the table's budget).
inline void print_lock_sweep(const float* a, const float* b, std::size_t n,
                             const course::Clock& clock) {
  Workspace ws;
  course::DeviceBuffer<float> c(1);
  std::printf(
      "\nlock sweep: median ms of v1a (every block takes the lock), v1b (the holder adds for the\n"
      "waiting) and v2 (atomicAdd), by grid (blocks of %d threads)\n%8s %12s %12s %12s\n",
      kThreads, "blocks", "v1a", "v1b", "v2");
  for (int blocks = 32; blocks <= kMaxBlocks; blocks *= 2) {
    std::printf("%8d", blocks);
    for (Run run : {dot_lock, dot_combining_lock, dot_atomic_add}) {
      const course::Timing t = clock.warmups(1).budget_ms(course::Lesson::kBudgetMs).time([&] {
        run(a, b, n, c.data(), ws, {nullptr, blocks});
      });
      std::printf(" %12.4f", t.median_ms);
    }
    std::printf("\n");
  }
}

}  // namespace lesson03
