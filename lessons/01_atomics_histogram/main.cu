// Lesson 01: a 256-bin histogram of n bytes, from the source's global atomics to faster than CUB.
// Runs the CPU versions, then every GPU version and CUB on the same data; checks each against
// the CPU exactly and prints the table. Build alone, from this folder:
//   nvcc -O3 -std=c++17 -arch=native -lineinfo -I../../common main.cu -o lesson01
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "experiments.cuh"
#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"

namespace {

using lesson01::Histogram;
using lesson01::kBins;
using lesson01::to_histogram;

struct Options {
  lesson01::Dist dist = lesson01::Dist::uniform;
  int blocks = 0;
  std::size_t bins_offset = 0;
  bool show_overflow = false;
  bool grid_sweep = false;
};

void add_options(course::CommandLine& cli, Options* o) {
  cli.choice("--dist", &o->dist, lesson01::dists(), "input bytes: ");
  cli.number("--blocks", &o->blocks, "grid size for every version (0: each version's own)", 0,
             1 << 30);
  cli.number("--bins-offset", &o->bins_offset,
             "place the counters this many bytes past a 4 KiB boundary (a multiple of 8)",
             std::size_t{0}, std::size_t{4088});
  cli.flag("--show-overflow", &o->show_overflow,
           "run v0 and v1 even when a bin passes 2^32, to watch their 32-bit counters wrap");
  cli.flag("--grid-sweep", &o->grid_sweep,
           "also time v4 and v7 with k x SMs blocks, k = 1..32 (exercise 4)");
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

// The CPU: the source's loop (the reference), and the fair baseline, every core with four
// sub-histograms each, which the table compares with. Returns the source's histogram; on
// `*agree`, whether the two agree.
Histogram run_cpu(course::Lesson& lesson, const std::vector<std::uint8_t>& input, bool* agree,
                  double* loop_ms) {
  const std::size_t n = input.size();
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  Histogram expected{};
  Histogram threaded{};
  course::NvtxRange range("CPU");
  const course::Timing loop = course::time_cpu(
      [&] { expected = lesson01::histogram_cpu_loop(input.data(), n); }, lesson.cpu_reps(), 1);
  const course::Timing parallel = course::time_cpu(
      [&] { threaded = lesson01::histogram_cpu_threads(input.data(), n, threads); },
      lesson.cpu_reps(), 1);
  const double gb = static_cast<double>(n) / 1e9;
  std::printf("CPU, the source's loop:                   %10.3f ms  %7.2f GB/s\n", loop.median_ms,
              gb / (loop.median_ms / 1e3));
  std::printf("CPU, %2u threads x 4 sub-histograms:       %10.3f ms  %7.2f GB/s\n\n", threads,
              parallel.median_ms, gb / (parallel.median_ms / 1e3));
  *agree = threaded == expected;
  if (!*agree) {
    std::printf("the two CPU histograms disagree: %s\n", difference(threaded, expected).c_str());
  }
  *loop_ms = loop.median_ms;
  lesson.set_cpu(parallel.median_ms, course::format("the CPU with %u threads", threads));
  return expected;
}

// Copy in, count with v7, copy out: the source's timing included the copy over PCIe, and this shows
// how much of such a figure is the kernel.
void whole_trip_v7(course::Lesson& lesson, const std::vector<std::uint8_t>& input,
                   course::DeviceBuffer<std::uint8_t>& d_input,
                   lesson01::Counters<unsigned long long>& d_wide) {
  std::vector<unsigned long long> back(kBins);
  lesson.whole_trip(
      "v7", static_cast<double>(input.size()), [&] { d_input.upload(input); },
      [&] {
        lesson01::histogram_pipelined(d_input.data(), input.size(), d_wide.data());
        CUDA_CHECK(cudaMemcpy(back.data(), d_wide.data(), kBins * sizeof(unsigned long long),
                              cudaMemcpyDeviceToHost));
      });
}

int run(course::Lesson& lesson, const Options& o) {
  const std::size_t n = lesson.n();
  if (o.bins_offset % 8 != 0)
    course::usage_error(lesson.cli(), "--bins-offset must be a multiple of 8");
  const std::string dist = lesson01::dists().name(o.dist);
  lesson.begin(course::format("histogram of %zu bytes, %s", n, dist.c_str()), n);
  const std::vector<std::uint8_t> input = lesson01::make_input(n, o.dist, lesson.options().seed);
  bool cpu_ok = false;
  double loop_ms = 0;
  const Histogram expected = run_cpu(lesson, input, &cpu_ok, &loop_ms);
  if (!cpu_ok) return course::kExitCheckFailed;

  const course::DeviceReport& report = lesson.gpu();
  course::DeviceBuffer<std::uint8_t> d_input(input);
  lesson01::Counters<unsigned int> d_narrow(o.bins_offset);
  lesson01::Counters<unsigned long long> d_wide(o.bins_offset);
  lesson.poison([&] {
    d_narrow.fill_bytes(0xFF);
    d_wide.fill_bytes(0xFF);
  });
  const auto narrow_check = [&] { return difference(to_histogram(d_narrow.download()), expected); };
  const auto wide_check = [&] { return difference(to_histogram(d_wide.download()), expected); };
  const bool narrow_wraps =
      *std::max_element(expected.begin(), expected.end()) > std::numeric_limits<unsigned>::max();
  const lesson01::Launch launch{nullptr, o.blocks};
  std::vector<course::Version> versions;
  for (const lesson01::Version& v : lesson01::versions()) {
    if (v.narrow != nullptr) {
      versions.push_back(course::as(
          v.kind,
          {v.name, v.idea,
           narrow_wraps && !o.show_overflow
               ? "32-bit counters wrap past 2^32 bytes of one value; --show-overflow runs it"
               : "",
           [&, v] { v.narrow(d_input.data(), n, d_narrow.data(), launch); }, narrow_check}));
    } else {
      versions.push_back(course::as(
          v.kind, {v.name, v.idea, "", [&, v] { v.wide(d_input.data(), n, d_wide.data(), launch); },
                   wide_check}));
    }
  }
  // CUB as its documentation shows it, with the counter width the data needs (kernels.cuh).
  const bool narrow = lesson01::narrow_counters_suffice(n);
  lesson01::CubHistogram<unsigned int> cub_narrow(n);
  lesson01::CubHistogram<unsigned long long> cub_wide(n);
  if (narrow) {
    versions.push_back(
        course::as(course::Kind::library,
                   {"CUB", "cub::DeviceHistogram::HistogramEven", "",
                    [&] { cub_narrow(d_input.data(), d_narrow.data()); }, narrow_check}));
  } else {
    versions.push_back(course::as(
        course::Kind::library, {"CUB", "cub::DeviceHistogram::HistogramEven, 64-bit counters", "",
                                [&] { cub_wide(d_input.data(), d_wide.data()); }, wide_check}));
  }
  lesson.run_versions(
      course::format("lesson01, n = %zu bytes, %s, on %s", n, dist.c_str(), report.props.name),
      static_cast<double>(n), versions);

  whole_trip_v7(lesson, input, d_input, d_wide);
  lesson.write_csv(dist, {{"cpu_loop_ms", course::format("%.6f", loop_ms)}});
  if (o.grid_sweep) lesson01::print_grid_sweep(d_input, n, d_wide, expected, lesson.clock());
  return lesson.finish();
}

}  // namespace

int main(int argc, char** argv) {
  course::Lesson lesson("01", "Histogram of n bytes: the CPU, every GPU version and CUB, checked.",
                        "bytes to count", std::size_t{100} << 20);  // 100 MiB, as in the source
  Options o;
  add_options(lesson.cli(), &o);
  return lesson.main(argc, argv, course::names_of(lesson01::versions(), {"CUB"}),
                     [&] { return run(lesson, o); });
}
