// Timing, done one way everywhere: warm up, repeat, report the median (and the spread).
// This header is plain C++, so CPU programs use it without CUDA; gpu_timing.cuh times the GPU.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "progress.hpp"

namespace course {

// The median of the samples (the mean of the middle two for an even count).
inline double median(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("median of no samples");
  const std::size_t mid = samples.size() / 2;
  std::nth_element(samples.begin(), samples.begin() + mid, samples.end());
  const double upper = samples[mid];
  if (samples.size() % 2 == 1) return upper;
  const double lower = *std::max_element(samples.begin(), samples.begin() + mid);
  return 0.5 * (lower + upper);
}

struct Timing {
  double median_ms = 0.0;
  double min_ms = 0.0;
  double max_ms = 0.0;
  int reps = 0;
};

inline Timing summarise(const std::vector<double>& samples_ms) {
  Timing t;
  t.median_ms = median(samples_ms);
  t.min_ms = *std::min_element(samples_ms.begin(), samples_ms.end());
  t.max_ms = *std::max_element(samples_ms.begin(), samples_ms.end());
  t.reps = static_cast<int>(samples_ms.size());
  return t;
}

// Whether a timing loop may stop early: slow versions stop once their samples add up to
// budget_ms (0: no budget), but never before 3 samples.
inline bool budget_spent(const std::vector<double>& samples, double budget_ms) {
  double total = 0.0;
  for (double s : samples)
    total += s;
  return budget_ms > 0.0 && samples.size() >= 3 && total >= budget_ms;
}

// Times a host function with std::chrono::steady_clock: `warmups` untimed calls, then `reps`
// timed ones (fewer when they exceed budget_ms, see budget_spent). `prepare` runs before each
// call, untimed. On a terminal, a run that takes more than two seconds shows which run it is on
// (progress.hpp).
template <typename Prepare, typename Run>
Timing time_cpu(Prepare&& prepare, Run&& run, int reps, int warmups = 1, double budget_ms = 0.0) {
  if (reps < 1) throw std::invalid_argument("time_cpu needs reps >= 1");
  Progress progress("timing on the CPU");
  double last_ms = 0.0;  // the last call's time, warm-up or timed: the estimate of the next
  for (int i = 0; i < warmups; ++i) {
    progress.now("warm-up");
    prepare();
    const auto start = std::chrono::steady_clock::now();
    run();
    last_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(reps));
  for (int i = 0; i < reps; ++i) {
    std::string doing = "run " + std::to_string(i + 1) + " of " + std::to_string(reps);
    if (last_ms > 0.0) {  // the rate so far, and the time the runs left would take at it
      doing += " (" + Progress::seconds_text(last_ms / 1e3) + " a run, about " +
               Progress::seconds_text(last_ms / 1e3 * (reps - i)) + " left)";
    }
    progress.now(doing);
    prepare();
    const auto start = std::chrono::steady_clock::now();
    run();
    const auto stop = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
    last_ms = samples.back();
    if (budget_spent(samples, budget_ms)) break;
  }
  return summarise(samples);
}

template <typename Run>
Timing time_cpu(Run&& run, int reps, int warmups = 1, double budget_ms = 0.0) {
  return time_cpu([] {}, run, reps, warmups, budget_ms);
}

}  // namespace course
