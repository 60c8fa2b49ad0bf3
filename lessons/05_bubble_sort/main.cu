// Lesson 05: sorting floats on the GPU, from the seed's one-block odd-even transposition sort to a
// bitonic sort within reach of the radix sort under thrust::sort. Runs std::sort and the seed's
// host odd-even sort, then every GPU version, thrust::sort and CUB on the same data; checks every
// result bit for bit against std::sort in IEEE 754 totalOrder, and prints the table. Build alone,
// from this folder:
//   nvcc -O3 -std=c++17 -arch=native -lineinfo -I../../common main.cu -o lesson05
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"

namespace {

constexpr double kBudgetMs = 3000.0;     // per version: stop after 3 runs when they are this slow
constexpr double kSweepStopMs = 2000.0;  // --sweep: a version stops after its first run this slow
constexpr std::size_t kHostOddEvenMaxN = std::size_t{1} << 16;  // about 2 s on one core

struct Options {
  course::StandardOptions common;
  std::string dist = "perm";
  int threads = lesson05::kSeedThreads;
  int cpu_reps = 5;
  bool seed_compare = false;
  bool sweep = false;
  std::string only;
  std::size_t sweep_max = std::size_t{1} << 22;
};

Options parse(int argc, char** argv) {
  Options o;
  o.common.n = lesson05::kSeedN;
  course::CommandLine cli("lesson05",
                          "Sorting floats: std::sort, the seed's host odd-even sort, every GPU "
                          "version, thrust::sort and CUB, on the same data.");
  course::add_standard_options(cli, &o.common, "floats to sort");
  cli.choice("--dist", &o.dist, lesson05::dist_names(), lesson05::dist_help());
  cli.number("--threads", &o.threads,
             "threads per block of v0 to v3 (a multiple of 32); the segment of v2 and v3 is "
             "twice this",
             32, 1024);
  cli.number("--cpu-reps", &o.cpu_reps, "timed runs of std::sort", 1, 1000);
  cli.flag("--seed-compare", &o.seed_compare,
           "run v0 with the seed's comparison (a < b) on the zeros and special inputs, and count "
           "the elements it leaves out of place");
  cli.flag("--sweep", &o.sweep,
           "time the host odd-even sort, v0, v1, v3, v8 and CUB at n = 2^10, 2^11, ... up to "
           "--sweep-max, each until a run takes 2 s; set v3 against the exercise-3 estimate");
  cli.text("--only", &o.only, "LIST",
           "run only these versions, by name, comma-separated: v0,v3,CUB (default: all)");
  cli.number("--sweep-max", &o.sweep_max, "the largest n of --sweep", std::size_t{1024},
             std::size_t{1} << 30);
  course::parse_or_exit(cli, argc, argv);
  if (o.threads % 32 != 0) course::usage_error(cli, "--threads must be a multiple of 32");
  std::vector<std::string> known = {"Thrust", "CUB"};
  for (const auto& v : lesson05::versions())
    known.push_back(v.name);
  const std::string unknown = course::VersionFilter(o.only).unknown(known);
  if (!unknown.empty()) course::usage_error(cli, "--only: no version is called " + unknown);
  return o;
}

// Runs `sort` (in -> out, out poisoned first) and compares out with the reference's result.
struct Outcome {
  course::Timing time;
  std::string mismatch;
};

template <typename Prepare, typename Sort>
Outcome time_and_check(course::DeviceBuffer<float>& out, const std::vector<float>& expected,
                       Prepare&& prepare, Sort&& sort, int reps, bool zeros_equal) {
  Outcome r;
  r.time = course::time_gpu(prepare, sort, reps, 2, nullptr, kBudgetMs);
  const std::vector<float> got = out.download();
  r.mismatch = lesson05::sort_mismatch(got.data(), expected, zeros_equal);
  return r;
}

// v0 with the seed's comparison, against v0 with totalOrder, on the two inputs where they differ.
bool seed_compare(std::size_t n, std::uint64_t seed, const lesson05::Launch& launch) {
  if (!lesson05::v0_limit(n, launch).empty()) n = lesson05::kSeedN;
  std::printf("\nthe seed's comparison: v0 on %zu floats, with a < b and with totalOrder\n", n);
  std::printf("%-8s %-44s %s\n", "input", "seed's a < b", "totalOrder");
  bool ok = true;
  for (lesson05::Dist dist : {lesson05::Dist::zeros, lesson05::Dist::special}) {
    const std::vector<float> in = lesson05::make_input(n, dist, seed);
    const std::vector<float> expected = lesson05::reference_sort(in);
    const course::DeviceBuffer<float> d_in(in);
    course::DeviceBuffer<float> d_out(n);
    d_out.fill_bytes(0xFF);
    lesson05::odd_even_shared(d_in.data(), d_out.data(), n, launch, lesson05::SeedLess{});
    const std::vector<float> seed_result = d_out.download();
    d_out.fill_bytes(0xFF);
    lesson05::odd_even_shared(d_in.data(), d_out.data(), n, launch, lesson05::TotalOrder{});
    const std::vector<float> total_result = d_out.download();
    std::size_t seed_wrong = 0;
    std::size_t seed_wrong_by_value = 0;  // also wrong when -0.0 and +0.0 count as equal
    std::size_t total_wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
      seed_wrong += course::bits_of<float>(seed_result[i]) != course::bits_of<float>(expected[i]);
      seed_wrong_by_value += lesson05::compared_bits(seed_result[i], true) !=
                             lesson05::compared_bits(expected[i], true);
      total_wrong += course::bits_of<float>(total_result[i]) != course::bits_of<float>(expected[i]);
    }
    ok = ok && total_wrong == 0;
    std::printf(
        "%-8s %-44s %s\n", lesson05::dist_name(dist).c_str(),
        course::format("%zu out of place (%zu with -0.0 == +0.0)", seed_wrong, seed_wrong_by_value)
            .c_str(),
        course::format("%zu out of place", total_wrong).c_str());
  }
  return ok;
}

// Exercise 3 and the quadratic curve: the odd-even versions, v8 and CUB, by n, on uniform floats.
bool sweep(std::size_t max_n, std::uint64_t seed, int reps, const lesson05::Launch& launch) {
  const int sms = course::sm_count();
  const std::size_t segment = 2 * static_cast<std::size_t>(launch.threads);
  const std::size_t segment_bytes = segment * sizeof(float);
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_sm, lesson05::odd_even_segment_kernel<true>, launch.threads, segment_bytes));
  const std::size_t resident = static_cast<std::size_t>(per_sm) * sms;
  // One launch of one full wave: every resident block sorts one segment.
  double wave_ms = 0;
  {
    const std::size_t n = resident * segment;
    const course::DeviceBuffer<float> d_in(
        lesson05::make_input(n, lesson05::Dist::uniform, seed + 1));
    course::DeviceBuffer<float> d_out(n);
    wave_ms = course::time_gpu(
                  [&] {
                    lesson05::odd_even_segment_kernel<true>
                        <<<static_cast<unsigned>(resident), launch.threads, segment_bytes>>>(
                            d_in.data(), d_out.data(), n, 0);
                    CUDA_CHECK_LAUNCH();
                  },
                  reps)
                  .median_ms;
  }
  std::printf(
      "\nsweep: median ms by n (uniform floats; - : not run, past its limit or after a run of "
      "2 s)\nexercise 3: v3 makes 2 launches per segment of %zu; a launch runs in "
      "ceil(segments / %zu) waves\n(%d SMs x %d blocks of %d threads), and one wave takes %.4f "
      "ms, so v3 should take\n2 x segments x waves x %.4f ms\n",
      segment, resident, sms, per_sm, launch.threads, wave_ms, wave_ms);
  std::printf("%10s %12s %12s %12s %12s %12s %9s %12s %12s\n", "n", "host odd-ev", "v0", "v1", "v3",
              "v3 estimate", "est/meas", "v8", "CUB");
  bool all_ok = true;
  bool host_on = true;
  bool on[3] = {true, true, true};  // v0, v1, v3
  const lesson05::Run odd_even[3] = {lesson05::sort_v0, lesson05::sort_v1, lesson05::sort_v3};
  const lesson05::Version* versions[3] = {&lesson05::versions()[0], &lesson05::versions()[1],
                                          &lesson05::versions()[3]};
  for (std::size_t n = 1024; n <= max_n; n *= 2) {
    const std::vector<float> in = lesson05::make_input(n, lesson05::Dist::uniform, seed);
    const std::vector<float> expected = lesson05::reference_sort(in);
    const course::DeviceBuffer<float> d_in(in);
    course::DeviceBuffer<float> d_out(n);
    auto cell = [](double ms) { return course::format("%12.4f", ms); };
    const std::string dash = course::format("%12s", "-");
    std::string line = course::format("%10s", course::size_text(n).c_str());
    if (host_on && n <= kHostOddEvenMaxN) {
      std::vector<float> copy;
      const course::Timing t = course::time_cpu(
          [&] { copy = in; }, [&] { lesson05::odd_even_sort(copy.data(), n); }, 1, 0);
      all_ok = all_ok && lesson05::sort_mismatch(copy.data(), expected).empty();
      host_on = t.median_ms < kSweepStopMs;
      line += cell(t.median_ms);
    } else {
      line += dash;
    }
    double v3_ms = 0;
    for (int i = 0; i < 3; ++i) {
      if (on[i] && versions[i]->limit(n, launch).empty()) {
        const Outcome r = time_and_check(
            d_out, expected, [&] { d_out.fill_bytes(0xFF); },
            [&] { odd_even[i](d_in.data(), d_out.data(), n, launch); }, reps, false);
        all_ok = all_ok && r.mismatch.empty();
        on[i] = r.time.median_ms < kSweepStopMs;
        line += cell(r.time.median_ms);
        if (i == 2) v3_ms = r.time.median_ms;
      } else {
        on[i] = false;
        line += dash;
      }
    }
    const std::size_t segments = (n + segment - 1) / segment;
    const double estimate = 2.0 * static_cast<double>(segments) *
                            static_cast<double>((segments + resident - 1) / resident) * wave_ms;
    line += cell(estimate);
    line += v3_ms > 0 ? course::format("%9.2f", estimate / v3_ms) : course::format("%9s", "-");
    const Outcome best = time_and_check(
        d_out, expected, [&] { d_out.fill_bytes(0xFF); },
        [&] { lesson05::sort_v8(d_in.data(), d_out.data(), n, launch); }, reps, false);
    lesson05::CubSort cub(n);
    const Outcome library = time_and_check(
        d_out, expected, [&] { d_out.fill_bytes(0xFF); }, [&] { cub(d_in.data(), d_out.data()); },
        reps, true);
    all_ok = all_ok && best.mismatch.empty() && library.mismatch.empty();
    line += cell(best.time.median_ms) + cell(library.time.median_ms);
    std::printf("%s\n", line.c_str());
  }
  std::printf("every result of the sweep %s\n",
              all_ok ? "matched std::sort" : "did NOT match std::sort");
  return all_ok;
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const std::string command = course::command_text("lesson05", argc, argv);
  const std::size_t n = o.common.n;
  const lesson05::Dist dist = lesson05::parse_dist(o.dist);
  const lesson05::Launch launch{nullptr, o.threads};
  std::printf("lesson05: sorting %zu floats, %s, seed %llu\n\n", n, o.dist.c_str(),
              static_cast<unsigned long long>(o.common.seed));
  // The input, the reference's result and a result read back, on the host; in, out and CUB's
  // scratch (about n floats) on the GPU.
  course::require_memory_for("lesson05", n, 3 * n * sizeof(float));
  const std::vector<float> in = lesson05::make_input(n, dist, o.common.seed);

  // The CPU: std::sort in totalOrder (the reference), and the seed's host odd-even sort.
  std::vector<float> expected;
  course::Timing cpu_sort;
  {
    course::NvtxRange range("CPU");
    cpu_sort = course::time_cpu([&] { expected = lesson05::reference_sort(in); }, o.cpu_reps, 1);
  }
  const double bytes = 2.0 * static_cast<double>(n) * sizeof(float);
  std::printf("CPU, std::sort (one core, totalOrder): %10.4f ms\n", cpu_sort.median_ms);
  bool cpu_ok = true;
  if (n <= kHostOddEvenMaxN) {
    course::NvtxRange range("CPU odd-even");
    std::vector<float> copy;
    const course::Timing t =
        course::time_cpu([&] { copy = in; }, [&] { lesson05::odd_even_sort(copy.data(), n); },
                         n <= 4096 ? o.cpu_reps : 1, n <= 4096 ? 1 : 0);
    const std::string mismatch = lesson05::sort_mismatch(copy.data(), expected);
    cpu_ok = mismatch.empty();
    std::printf("CPU, the seed's odd-even sort:         %10.4f ms (%.1fx std::sort's time) %s\n",
                t.median_ms, t.median_ms / cpu_sort.median_ms,
                cpu_ok ? "ok" : ("FAIL: " + mismatch).c_str());
  } else {
    std::printf("CPU, the seed's odd-even sort: not run past n = 2^16 (quadratic: see --sweep)\n");
  }
  if (dist == lesson05::Dist::perm && n <= (std::size_t{1} << 24)) {
    std::printf("the seed's check, c[k] == k: %s\n",
                lesson05::seed_check(expected.data(), n) ? "ok" : "FAIL");
  }
  std::printf("\n");

  const course::DeviceReport report = course::require_gpu_or_exit("lesson05");
  const course::DeviceBuffer<float> d_in(in);
  course::DeviceBuffer<float> d_out(n);
  const auto poison = [&] { d_out.fill_bytes(0xFF); };

  course::ResultTable table(
      course::format("lesson05, n = %zu floats, %s, on %s", n, o.dist.c_str(), report.props.name),
      report.copy_gbps, cpu_sort.median_ms, "std::sort on one core");
  auto add_row = [&](const std::string& name, const std::string& idea, const Outcome& r,
                     const std::string& note) {
    table.add_checked(name, idea, r.time, bytes, r.mismatch, note);
  };
  auto add_skipped = [&](const std::string& name, const std::string& idea, const std::string& why) {
    table.add_skipped(name, idea, bytes, why);
  };

  const course::VersionFilter only(o.only);
  const auto chosen = [&](const std::string& name) { return only.chosen(name); };
  for (const lesson05::Version& v : lesson05::versions()) {
    const std::string why = chosen(v.name) ? v.limit(n, launch) : "not in --only";
    if (!why.empty()) {
      add_skipped(v.name, v.idea, why);
      continue;
    }
    course::NvtxRange range((std::string(v.name) + " " + v.idea).c_str());
    add_row(v.name, v.idea,
            time_and_check(
                d_out, expected, poison, [&] { v.run(d_in.data(), d_out.data(), n, launch); },
                o.common.reps, false),
            "");
  }
  if (n <= lesson05::kLibraryMaxN) {
    if (!chosen("Thrust")) {
      add_skipped("Thrust", "thrust::sort (in place; allocates scratch)", "not in --only");
    } else {
      course::NvtxRange range("thrust::sort");
      // thrust::sort sorts in place: each run sorts a fresh copy of the input, made untimed.
      const auto copy_in = [&] {
        CUDA_CHECK(cudaMemcpyAsync(d_out.data(), d_in.data(), n * sizeof(float),
                                   cudaMemcpyDeviceToDevice));
      };
      add_row("Thrust", "thrust::sort (in place; allocates scratch)",
              time_and_check(
                  d_out, expected, copy_in, [&] { lesson05::thrust_sort(d_out.data(), n); },
                  o.common.reps, true),
              "checked with -0.0 == +0.0, the order of its radix sort");
    }
    if (!chosen("CUB")) {
      add_skipped("CUB", "DeviceRadixSort::SortKeys, scratch kept", "not in --only");
    } else {
      course::NvtxRange range("CUB");
      lesson05::CubSort cub(n);
      add_row("CUB", "DeviceRadixSort::SortKeys, scratch kept",
              time_and_check(
                  d_out, expected, poison, [&] { cub(d_in.data(), d_out.data()); }, o.common.reps,
                  true),
              "checked with -0.0 == +0.0, the order of its radix sort");
    }
  } else {
    add_skipped("Thrust", "thrust::sort (in place; allocates scratch)", "n >= 2^31");
    add_skipped("CUB", "DeviceRadixSort::SortKeys, scratch kept", "n >= 2^31");
  }
  std::printf("%s\n", table.text().c_str());

  // The best version against the CPU, the seed's version and the libraries, from the rows above.
  const std::string best = course::best_version_line(table, cpu_sort.median_ms, "std::sort");
  if (!best.empty()) std::printf("%s (data on the GPU, no host copies timed)\n\n", best.c_str());

  // The whole trip: copy the input in (from pageable memory), v8, copy the result out.
  {
    course::NvtxRange range("whole trip");
    course::DeviceBuffer<float> copy(n);
    std::vector<float> back(n);
    const course::Trip trip =
        course::time_whole_trip([&] { copy.upload(in); },
                                [&] {
                                  lesson05::sort_v8(copy.data(), d_out.data(), n, launch);
                                  back = d_out.download();
                                });
    std::printf("%s\n", course::whole_trip_text("v8", trip, 3, bytes / 2).c_str());
  }

  course::write_table_csv(table, o.common.csv, "05", report, command, n, o.dist,
                          {{"size", course::size_text(n) + " floats"}});
  bool extra_ok = true;
  if (o.seed_compare) extra_ok = seed_compare(n, o.common.seed, launch) && extra_ok;
  if (o.sweep) extra_ok = sweep(o.sweep_max, o.common.seed, o.common.reps, launch) && extra_ok;
  return table.any_failed() || !cpu_ok || !extra_ok ? course::kExitCheckFailed : course::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program("lesson05", [&] { return run(argc, argv); });
}
