// Timing device work with CUDA events: warm up, repeat, report the median (and the spread).
//
//   auto t = course::time_gpu([&] { bins.fill_bytes(0xFF); },      // untimed: poison the output
//                             [&] { histogram_v3(d_in, n, bins); }, // timed, with CUDA events
//                             reps);
//   std::printf("%.3f ms\n", t.median_ms);
#pragma once

#include <cstddef>
#include <stdexcept>
#include <vector>

#include "device_memory.hpp"
#include "timing.hpp"

namespace course {

// Times device work with CUDA events on `stream`. `run` enqueues the work (kernels, memsets:
// everything the version needs to produce its result); `prepare` enqueues what must happen
// before each run but is not part of it, such as poisoning the output. Both are checked by
// the caller's CUDA_CHECK / CUDA_CHECK_LAUNCH. Slow versions stop early once their samples add
// up to budget_ms (0: no budget), after at least 3 samples.
template <typename Prepare, typename Run>
Timing time_gpu(Prepare&& prepare, Run&& run, int reps, int warmups = 2,
                cudaStream_t stream = nullptr, double budget_ms = 0.0) {
  if (reps < 1) throw std::invalid_argument("time_gpu needs reps >= 1");
  for (int i = 0; i < warmups; ++i) {
    prepare();
    run();
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CudaEvent start;
  CudaEvent stop;
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(reps));
  for (int i = 0; i < reps; ++i) {
    prepare();
    start.record(stream);
    run();
    stop.record(stream);
    samples.push_back(stop.elapsed_ms_since(start));
    if (budget_spent(samples, budget_ms)) break;
  }
  return summarise(samples);
}

template <typename Run>
Timing time_gpu(Run&& run, int reps, int warmups = 2, cudaStream_t stream = nullptr,
                double budget_ms = 0.0) {
  return time_gpu([] {}, run, reps, warmups, stream, budget_ms);
}

}  // namespace course
