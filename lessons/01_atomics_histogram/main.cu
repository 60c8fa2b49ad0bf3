// Lesson 01: a 256-bin histogram of n bytes, from the seed's global atomics to faster than CUB.
// Runs the CPU versions, then every GPU version and CUB on the same data; checks each against
// the CPU exactly and prints the table. Build alone, from this folder:
//   nvcc -O3 -std=c++17 -arch=native -lineinfo -I../../common main.cu -o lesson01
#include <cstdio>
#include <limits>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"

namespace {

using lesson01::Histogram;
using lesson01::kBins;

constexpr double kBudgetMs = 3000.0;  // per version: slow seed versions stop after 3 runs

struct Options {
  course::StandardOptions common;
  std::string dist = "uniform";
  int cpu_reps = 3;
  int blocks = 0;
  bool show_overflow = false;
  bool grid_sweep = false;
};

Options parse(int argc, char** argv) {
  Options o;
  o.common.n = std::size_t{100} << 20;  // 100 MiB, as in the seed
  course::CommandLine cli("lesson01",
                          "Histogram of n bytes: the CPU, every GPU version and CUB, checked.");
  course::add_standard_options(cli, &o.common, "bytes to count");
  cli.choice("--dist", &o.dist, {"uniform", "same", "skewed"},
             "input bytes: uniform random, all the same value, or skewed (Zipf, like text)");
  cli.number("--cpu-reps", &o.cpu_reps, "timed runs of each CPU version", 1, 1000);
  cli.number("--blocks", &o.blocks, "grid size for every version (0: each version's own)", 0,
             1 << 30);
  cli.flag("--show-overflow", &o.show_overflow,
           "run v0 and v1 even when a bin passes 2^32, to watch their 32-bit counters wrap");
  cli.flag("--grid-sweep", &o.grid_sweep,
           "also time v4 and v7 with k x SMs blocks, k = 1..32 (exercise 4)");
  course::parse_or_exit(cli, argc, argv);
  return o;
}

template <typename Counter>
Histogram to_histogram(const std::vector<Counter>& counts) {
  Histogram h{};
  for (int b = 0; b < kBins; ++b)
    h[b] = counts[b];
  return h;
}

// "" when equal; otherwise the first wrong bin and how many are wrong.
std::string difference(const Histogram& got, const Histogram& expected) {
  int wrong = 0;
  int first = -1;
  for (int b = 0; b < kBins; ++b) {
    if (got[b] != expected[b] && wrong++ == 0) first = b;
  }
  if (wrong == 0) return "";
  return course::format("%d bins wrong; bin %d counted %llu, expected %llu", wrong, first,
                        static_cast<unsigned long long>(got[first]),
                        static_cast<unsigned long long>(expected[first]));
}

// Copy in, count with v7, copy out: the seed's timing included the copy over PCIe, and this
// shows how much of such a figure is the kernel. Timed from the host's side, as the seed did.
void print_whole_trip(const std::vector<std::uint8_t>& input,
                      course::DeviceBuffer<std::uint8_t>& d_input,
                      course::DeviceBuffer<unsigned long long>& d_bins, int reps) {
  std::vector<unsigned long long> out(kBins);
  std::vector<double> total, copy_in, kernel;
  for (int r = 0; r < reps + 1; ++r) {
    course::CudaEvent e0, e1, e2, e3;
    e0.record();
    d_input.upload(input);  // from pageable memory, as a std::vector is
    e1.record();
    lesson01::histogram_pipelined(d_input.data(), input.size(), d_bins.data());
    e2.record();
    CUDA_CHECK(cudaMemcpy(out.data(), d_bins.data(), kBins * sizeof(unsigned long long),
                          cudaMemcpyDeviceToHost));
    e3.record();
    if (r == 0) continue;  // warm-up
    total.push_back(e3.elapsed_ms_since(e0));
    copy_in.push_back(e1.elapsed_ms_since(e0));
    kernel.push_back(e2.elapsed_ms_since(e1));
  }
  const double in_ms = course::median(copy_in);
  std::printf(
      "whole trip with v7 (median of %d): %.3f ms = copy in %.3f ms (%.1f GB/s over PCIe, "
      "pageable) + kernel %.3f ms + copy out of 2 KiB\n",
      reps, course::median(total), in_ms, static_cast<double>(input.size()) / (in_ms * 1e6),
      course::median(kernel));
}

// Exercise 4: time against grid size, k x SMs blocks for k = 1..32.
void print_grid_sweep(course::DeviceBuffer<std::uint8_t>& d_input, std::size_t n,
                      course::DeviceBuffer<unsigned long long>& d_bins, const Histogram& expected,
                      int reps) {
  const int sms = course::sm_count();
  std::printf("\ngrid sweep: median ms (GB/s) with k x %d blocks\n", sms);
  std::printf("%4s %7s  %-22s %-22s\n", "k", "blocks", "v4 (256 threads)", "v7 (1024 threads)");
  bool all_ok = true;
  for (int k = 1; k <= 32; ++k) {
    const lesson01::Launch launch{nullptr, k * sms};
    std::string cells;
    const lesson01::Run<unsigned long long> runs[] = {lesson01::histogram_occupancy_grid,
                                                      lesson01::histogram_pipelined};
    for (auto run : runs) {
      const course::Timing t =
          course::time_gpu([&] { d_bins.fill_bytes(0xFF); },
                           [&] { run(d_input.data(), n, d_bins.data(), launch); }, reps);
      all_ok = all_ok && to_histogram(d_bins.download()) == expected;
      cells += course::format(" %8.4f (%7.1f)     ", t.median_ms,
                              static_cast<double>(n) / (t.median_ms * 1e6));
    }
    std::printf("%4d %7d %s\n", k, k * sms, cells.c_str());
  }
  std::printf("every sweep result %s\n", all_ok ? "checked ok" : "FAILED its check");
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const std::size_t n = o.common.n;
  std::printf("lesson01: histogram of %zu bytes, %s, seed %llu\n\n", n, o.dist.c_str(),
              static_cast<unsigned long long>(o.common.seed));
  course::require_memory_for("lesson01", n, n);  // before any work
  const std::vector<std::uint8_t> input = lesson01::make_input(n, o.dist, o.common.seed);

  // The CPU: the seed's loop, and the fair baseline (every core, four sub-histograms each).
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  Histogram expected{};
  Histogram threaded{};
  course::Timing cpu_loop;
  course::Timing cpu_threads;
  {
    course::NvtxRange range("CPU");
    cpu_loop = course::time_cpu([&] { expected = lesson01::histogram_cpu_loop(input.data(), n); },
                                o.cpu_reps, 1);
    cpu_threads = course::time_cpu(
        [&] { threaded = lesson01::histogram_cpu_threads(input.data(), n, threads); }, o.cpu_reps,
        1);
  }
  const double gb = static_cast<double>(n) / 1e9;
  std::printf("CPU, the seed's loop:                     %10.3f ms  %7.2f GB/s\n",
              cpu_loop.median_ms, gb / (cpu_loop.median_ms / 1e3));
  std::printf("CPU, %2u threads x 4 sub-histograms:       %10.3f ms  %7.2f GB/s\n\n", threads,
              cpu_threads.median_ms, gb / (cpu_threads.median_ms / 1e3));
  if (threaded != expected) {
    std::printf("the two CPU histograms disagree: %s\n", difference(threaded, expected).c_str());
    return course::kExitCheckFailed;
  }

  const course::DeviceReport report = course::require_gpu_or_exit("lesson01");
  course::DeviceBuffer<std::uint8_t> d_input(input);
  course::DeviceBuffer<unsigned int> d_narrow(kBins);
  course::DeviceBuffer<unsigned long long> d_wide(kBins);

  std::uint64_t largest_bin = 0;
  for (auto count : expected)
    largest_bin = std::max<std::uint64_t>(largest_bin, count);
  const bool narrow_wraps = largest_bin > std::numeric_limits<unsigned int>::max();

  course::ResultTable table(course::format("%s, n = %zu bytes, %s, on %s", "lesson01", n,
                                           o.dist.c_str(), report.props.name),
                            report.copy_gbps, cpu_threads.median_ms,
                            course::format("the CPU with %u threads", threads));
  const lesson01::Launch launch{nullptr, o.blocks};
  for (const lesson01::Version& v : lesson01::versions()) {
    course::NvtxRange range((std::string(v.name) + " " + v.idea).c_str());
    course::TableRow row{v.name, v.idea, {}, static_cast<double>(n), course::Check::ok, ""};
    Histogram got{};
    if (v.narrow != nullptr) {
      if (narrow_wraps && !o.show_overflow) {
        row.check = course::Check::skipped;
        row.note = "32-bit counters wrap past 2^32 bytes of one value; --show-overflow runs it";
        table.add(row);
        continue;
      }
      row.time = course::time_gpu([&] { d_narrow.fill_bytes(0xFF); },
                                  [&] { v.narrow(d_input.data(), n, d_narrow.data(), launch); },
                                  o.common.reps, 2, nullptr, kBudgetMs);
      got = to_histogram(d_narrow.download());
    } else {
      row.time = course::time_gpu([&] { d_wide.fill_bytes(0xFF); },
                                  [&] { v.wide(d_input.data(), n, d_wide.data(), launch); },
                                  o.common.reps, 2, nullptr, kBudgetMs);
      got = to_histogram(d_wide.download());
    }
    row.note = difference(got, expected);
    row.check = row.note.empty() ? course::Check::ok : course::Check::fail;
    table.add(row);
  }
  {
    // CUB as its documentation shows it, with the counter width the data needs (kernels.cuh).
    course::NvtxRange range("CUB HistogramEven");
    auto time_cub = [&](auto& d_bins, const char* idea) {
      using Counter = typename std::remove_reference_t<decltype(d_bins)>::value_type;
      lesson01::CubHistogram<Counter> cub(n);
      course::TableRow row{"CUB", idea, {}, static_cast<double>(n), course::Check::ok, ""};
      row.time = course::time_gpu([&] { d_bins.fill_bytes(0xFF); },
                                  [&] { cub(d_input.data(), d_bins.data()); }, o.common.reps, 2,
                                  nullptr, kBudgetMs);
      row.note = difference(to_histogram(d_bins.download()), expected);
      row.check = row.note.empty() ? course::Check::ok : course::Check::fail;
      table.add(row);
    };
    if (lesson01::narrow_counters_suffice(n)) {
      time_cub(d_narrow, "cub::DeviceHistogram::HistogramEven");
    } else {
      time_cub(d_wide, "cub::DeviceHistogram::HistogramEven, 64-bit counters");
    }
  }
  std::printf("%s\n", table.text().c_str());
  {
    course::NvtxRange range("whole trip");
    print_whole_trip(input, d_input, d_wide, 3);
  }
  course::write_table_csv(table, o.common.csv, "01", report,
                          course::command_text("lesson01", argc, argv), n, o.dist,
                          {{"cpu_loop_ms", course::format("%.6f", cpu_loop.median_ms)}});
  if (o.grid_sweep) print_grid_sweep(d_input, n, d_wide, expected, o.common.reps);
  return table.any_failed() ? course::kExitCheckFailed : course::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program("lesson01", [&] { return run(argc, argv); });
}
