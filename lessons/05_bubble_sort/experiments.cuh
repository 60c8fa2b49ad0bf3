// Lesson 05's experiments, run after the table when asked. --source-compare runs v0 with the
// source's comparison (a < b) on the inputs where it differs from totalOrder; --sweep times the
// quadratic versions by n, against exercise 3's estimate for v3, and v8 and CUB's two sorts beside
// them.
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"

namespace lesson05 {

constexpr double kSweepStopMs = 2000.0;  // --sweep: a version stops after its first run this slow

// ---- --source-compare ---------------------------------------------------------------------------

// v0 with the source's comparison, against v0 with totalOrder, on the two inputs where they differ.
inline bool source_compare(std::size_t n, std::uint64_t seed, const Launch& launch) {
  if (!v0_limit(n, launch).empty()) n = kSourceN;
  std::printf("\nthe source's comparison: v0 on %zu floats, with a < b and with totalOrder\n", n);
  std::printf("%-8s %-44s %s\n", "input", "source's a < b", "totalOrder");
  bool ok = true;
  for (Dist dist : {Dist::zeros, Dist::special}) {
    const std::vector<float> in = make_input(n, dist, seed);
    const std::vector<float> expected = reference_sort(in);
    const course::DeviceBuffer<float> d_in(in);
    course::DeviceBuffer<float> d_out(n);
    d_out.fill_bytes(0xFF);
    odd_even_shared(d_in.data(), d_out.data(), n, launch, SourceLess{});
    const std::vector<float> source_result = d_out.download();
    d_out.fill_bytes(0xFF);
    odd_even_shared(d_in.data(), d_out.data(), n, launch, TotalOrder{});
    const std::vector<float> total_result = d_out.download();
    std::size_t source_wrong = 0;
    std::size_t source_wrong_by_value = 0;  // also wrong when -0.0 and +0.0 count as equal
    std::size_t total_wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
      source_wrong +=
          course::bits_of<float>(source_result[i]) != course::bits_of<float>(expected[i]);
      source_wrong_by_value +=
          compared_bits(source_result[i], true) != compared_bits(expected[i], true);
      total_wrong += course::bits_of<float>(total_result[i]) != course::bits_of<float>(expected[i]);
    }
    ok = ok && total_wrong == 0;
    std::printf("%-8s %-44s %s\n", dists().name(dist).c_str(),
                course::format("%zu out of place (%zu with -0.0 == +0.0)", source_wrong,
                               source_wrong_by_value)
                    .c_str(),
                course::format("%zu out of place", total_wrong).c_str());
  }
  return ok;
}

// ---- --sweep ------------------------------------------------------------------------------------

// Exercise 3's model of v3: a launch of v3's segment kernel runs in waves of `resident` blocks
// (per_sm on each of the sms SMs), and one full wave takes wave_ms.
struct Waves {
  int sms;
  int per_sm;
  std::size_t resident;
  double wave_ms;

  // v3's estimate at n: 2 launches per round, one round per segment, each launch in
  // ceil(segments / resident) waves.
  double estimate_ms(std::size_t n, std::size_t segment) const {
    const std::size_t segments = (n + segment - 1) / segment;
    return 2.0 * static_cast<double>(segments) *
           static_cast<double>((segments + resident - 1) / resident) * wave_ms;
  }
};

// Times one launch of one full wave: every resident block sorts one segment. Each run after the L2
// flush, as the table's rows.
inline Waves measure_waves(const Launch& launch, std::uint64_t seed, const course::Clock& clock) {
  const std::size_t segment_bytes = 2 * static_cast<std::size_t>(launch.threads) * sizeof(float);
  Waves w{course::sm_count(), 0, 0, 0};
  w.per_sm = course::blocks_per_sm(odd_even_segment_kernel<true>, launch.threads, segment_bytes);
  w.resident = static_cast<std::size_t>(w.per_sm) * w.sms;
  const std::size_t n = w.resident * 2 * static_cast<std::size_t>(launch.threads);
  const course::DeviceBuffer<float> d_in(make_input(n, Dist::uniform, seed + 1));
  course::DeviceBuffer<float> d_out(n);
  w.wave_ms = clock
                  .time([&] {
                    odd_even_segment_kernel<true>
                        <<<static_cast<unsigned>(w.resident), launch.threads, segment_bytes>>>(
                            d_in.data(), d_out.data(), n, 0);
                    CUDA_CHECK_LAUNCH();
                  })
                  .median_ms;
  return w;
}

// The sweep's state across sizes: which columns still run, and whether every result matched.
struct SweepState {
  bool host_on = true;
  bool on[3] = {true, true, true};  // v0, v1, v3
  bool all_ok = true;
};

inline std::string ms_cell(double ms) {
  return course::format("%12.4f", ms);
}

// One row of the sweep, at n: the host odd-even sort, v0, v1, v3, v3's estimate, v8, CUB's radix
// sort and CUB's merge sort.
inline std::string sweep_row(course::Lesson& lesson, std::size_t n, const Launch& launch,
                             const Waves& waves, SweepState& state) {
  const std::vector<float> in = make_input(n, Dist::uniform, lesson.options().seed);
  const std::vector<float> expected = reference_sort(in);
  const course::DeviceBuffer<float> d_in(in);
  course::DeviceBuffer<float> d_out(n);
  // A run into d_out, poisoned first, checked against std::sort; stopped after a run of 2 s.
  const auto time_sort = [&](std::function<void()> sort, bool zeros_equal) {
    const course::Outcome r = lesson.time(
        {"", "", "", std::move(sort),
         [&, zeros_equal] { return sort_mismatch(d_out.download().data(), expected, zeros_equal); },
         [&] { d_out.fill_bytes(0xFF); }},
        kSweepStopMs);
    state.all_ok = state.all_ok && r.mismatch.empty();
    return r.time.median_ms;
  };
  const std::string dash = course::format("%12s", "-");
  std::string line = course::format("%10s", course::size_text(n).c_str());
  if (state.host_on && n <= kHostOddEvenMaxN) {
    std::vector<float> copy;
    const course::Timing t =
        course::time_cpu([&] { copy = in; }, [&] { odd_even_sort(copy.data(), n); }, 1, 0);
    state.all_ok = state.all_ok && sort_mismatch(copy.data(), expected).empty();
    state.host_on = t.median_ms < kSweepStopMs;
    line += ms_cell(t.median_ms);
  } else {
    line += dash;
  }
  const int columns[3] = {0, 1, 3};  // v0, v1, v3 in versions()
  double v3_ms = 0;
  for (int i = 0; i < 3; ++i) {
    const Version& v = versions()[static_cast<std::size_t>(columns[i])];
    state.on[i] = state.on[i] && v.limit(n, launch).empty();
    if (!state.on[i]) {
      line += dash;
      continue;
    }
    const double ms = time_sort([&] { v.run(d_in.data(), d_out.data(), n, launch); }, false);
    state.on[i] = ms < kSweepStopMs;
    line += ms_cell(ms);
    if (i == 2) v3_ms = ms;
  }
  const double estimate = waves.estimate_ms(n, 2 * static_cast<std::size_t>(launch.threads));
  line += ms_cell(estimate);
  line += v3_ms > 0 ? course::format("%9.2f", estimate / v3_ms) : course::format("%9s", "-");
  line += ms_cell(time_sort([&] { sort_v8(d_in.data(), d_out.data(), n, launch); }, false));
  CubSort cub(n);
  line += ms_cell(time_sort([&] { cub(d_in.data(), d_out.data()); }, true));
  CubMergeSort merge(n);
  line += ms_cell(time_sort([&] { merge(d_in.data(), d_out.data()); }, false));
  return line;
}

// Exercise 3 and the quadratic curve: the odd-even versions, v8 and CUB's two sorts, by n, on
// uniform floats.
inline bool sweep(course::Lesson& lesson, std::size_t max_n, const Launch& launch) {
  const Waves w = measure_waves(launch, lesson.options().seed, lesson.clock());
  const std::size_t segment = 2 * static_cast<std::size_t>(launch.threads);
  std::printf(
      "\nsweep: median ms by n (uniform floats; - : not run, past its limit or after a run of "
      "2 s)\nexercise 3: v3 makes 2 launches per segment of %zu; a launch runs in "
      "ceil(segments / %zu) waves\n(%d SMs x %d blocks of %d threads), and one wave takes %.4f "
      "ms, so v3 should take\n2 x segments x waves x %.4f ms\n",
      segment, w.resident, w.sms, w.per_sm, launch.threads, w.wave_ms, w.wave_ms);
  std::printf("%10s %12s %12s %12s %12s %12s %9s %12s %12s %12s\n", "n", "host odd-ev", "v0", "v1",
              "v3", "v3 estimate", "est/meas", "v8", "CUB", "CUB-merge");
  SweepState state;
  for (std::size_t n = 1024; n <= max_n; n *= 2)
    std::printf("%s\n", sweep_row(lesson, n, launch, w, state).c_str());
  std::printf("every result of the sweep %s\n",
              state.all_ok ? "matched std::sort" : "did NOT match std::sort");
  return state.all_ok;
}

}  // namespace lesson05
