// The course's one clock: every GPU timing, in the lessons' tables, experiments, sweeps and tests,
// goes through a course::Clock. What it does before every timed run, untimed:
//   1. the poison: what makes the outputs garbage, so a run that writes nothing cannot pass on the
//      result of the one before;
//   2. the L2 policy: by default the L2 is flushed (L2Flush, gpu_timing.cuh), so every run starts
//      cold, as a run in a user's program does after other work. A timing that keeps the L2 warm
//      says so at its call, with keep_l2_warm(), and says why in a comment there;
//   3. the prepare step: what the run needs set up after the flush (an empty table to insert into).
// Then it times the run with CUDA events behind a busy kernel (time_gpu, gpu_timing.cuh): 2
// warm-ups, then `reps` runs, and reports the median. With a budget, a slow version stops once its
// runs add up to it, after at least 3.
//
//   course::Clock clock = lesson.clock().budget_ms(course::Lesson::kBudgetMs);
//   const course::Timing t = clock.time([&] { histogram_v3(d_in, n, bins); },   // timed
//                                       [&] { bins.fill_bytes(0xFF); });       // the poison
//
// A Clock is a small value: its settings return a changed copy. Every clock of a device shares one
// flush buffer (twice the L2's size) while any of them lives, so a lesson's experiments take no
// more memory than its table.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "check.hpp"
#include "gpu_timing.cuh"
#include "launch.hpp"
#include "timing.hpp"

namespace course {

// The flush buffer of the current device, shared by every clock of that device while one holds it.
inline std::shared_ptr<L2Flush> shared_l2_flush() {
  static std::mutex mutex;
  static std::map<int, std::weak_ptr<L2Flush>> by_device;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<L2Flush> flush = by_device[device].lock();
  if (!flush) {
    flush = std::make_shared<L2Flush>(l2_bytes());
    by_device[device] = flush;
  }
  return flush;
}

class Clock {
 public:
  // `reps` timed runs after 2 warm-ups, on the legacy default stream, the L2 flushed before each
  // run, no budget.
  explicit Clock(int reps = 20) { set_reps(reps); }

  // The settings, each as a changed copy.
  Clock reps(int reps) const {
    Clock c = *this;
    c.set_reps(reps);
    return c;
  }
  Clock warmups(int warmups) const {
    Clock c = *this;
    c.warmups_ = warmups;
    return c;
  }
  Clock budget_ms(double budget_ms) const {
    Clock c = *this;
    c.budget_ms_ = budget_ms;
    return c;
  }
  Clock on(cudaStream_t stream) const {
    Clock c = *this;
    c.stream_ = stream;
    return c;
  }
  // The L2 keeps what the run before left in it. Say why at the call: it changes what is measured.
  Clock keep_l2_warm() const {
    Clock c = *this;
    c.flush_l2_ = false;
    c.flush_.reset();
    return c;
  }

  int reps() const { return reps_; }
  int warmups() const { return warmups_; }
  double budget_ms() const { return budget_ms_; }
  bool flushes_l2() const { return flush_l2_; }
  // Whether the flush is NVBench's memset (COURSE_L2_FLUSH=write) rather than a read.
  bool flush_writes() const { return flush_l2_ && flush()->writes(); }

  // Times `run` (it enqueues the work on the clock's stream), each run after `poison`, the L2
  // policy and `prepare`, none of them timed. The callers check their own CUDA calls.
  Timing time(const std::function<void()>& run, const std::function<void()>& poison = {},
              const std::function<void()>& prepare = {}) const {
    L2Flush* flush = flush_l2_ ? this->flush() : nullptr;
    return time_gpu(
        [&] {
          if (poison) poison();
          if (flush != nullptr) flush->flush(stream_);
          if (prepare) prepare();
        },
        run, reps_, warmups_, stream_, budget_ms_);
  }

 private:
  void set_reps(int reps) {
    if (reps < 1) throw std::invalid_argument("a Clock needs reps >= 1");
    reps_ = reps;
  }
  // The device's flush buffer, fetched on first use (a clock that keeps the L2 warm needs none).
  L2Flush* flush() const {
    if (!flush_) flush_ = shared_l2_flush();
    return flush_.get();
  }

  int reps_ = 20;
  int warmups_ = 2;
  double budget_ms_ = 0.0;
  cudaStream_t stream_ = nullptr;
  bool flush_l2_ = true;
  mutable std::shared_ptr<L2Flush> flush_;
};

}  // namespace course
