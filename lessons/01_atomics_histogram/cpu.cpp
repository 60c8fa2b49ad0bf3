// Lesson 01 on the CPU alone: the source's loop, the same loop with four sub-histograms, and every
// core with four sub-histograms each, on each input. It shows why the source's loop is several
// times slower on all-equal bytes, and gives the GPU a fair CPU to beat. Build alone:
//   g++ -O3 -std=c++17 -pthread -I../../common cpu.cpp -o lesson01_cpu
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "format.hpp"
#include "reference.hpp"
#include "timing.hpp"

namespace {

int run(int argc, char** argv) {
  std::size_t n = std::size_t{100} << 20;
  std::uint64_t seed = course::kDefaultSeed;
  int reps = 5;
  std::string dist = "all";
  std::vector<std::string> all_dists = lesson01::dists().names();
  all_dists.insert(all_dists.begin(), "all");
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  course::CommandLine cli("lesson01_cpu", "Histogram of n bytes on the CPU, three ways.");
  cli.cpu_only();
  course::add_standard_flags(cli, &n, &seed, &reps, "bytes to count")
      .choice("--dist", &dist, all_dists, "input bytes: all, or one of the lesson's")
      .number("--threads", &threads, "threads for the threaded version", 1u, 1024u);
  course::parse_or_exit(cli, argc, argv);
  // One input at a time, n bytes; the sub-histograms are small.
  course::require_host_memory(cli.program(), course::format("--n %zu", n), static_cast<double>(n));

  const std::vector<lesson01::Dist> dists =
      dist == "all" ? lesson01::dists().all()
                    : std::vector<lesson01::Dist>{lesson01::dists().parse(dist)};
  std::printf("lesson01_cpu: histogram of %zu bytes, seed %llu, median of %d runs\n\n", n,
              static_cast<unsigned long long>(seed), reps);
  std::printf("%-10s %-36s %10s %8s\n", "input", "version", "ms", "GB/s");
  bool agree = true;
  for (const lesson01::Dist d : dists) {
    const std::vector<std::uint8_t> input = lesson01::make_input(n, d, seed);
    lesson01::Histogram loop{}, unrolled{}, threaded{};
    const course::Timing t_loop =
        course::time_cpu([&] { loop = lesson01::histogram_cpu_loop(input.data(), n); }, reps);
    const course::Timing t_unrolled = course::time_cpu(
        [&] { unrolled = lesson01::histogram_cpu_unrolled(input.data(), n); }, reps);
    const course::Timing t_threaded = course::time_cpu(
        [&] { threaded = lesson01::histogram_cpu_threads(input.data(), n, threads); }, reps);
    agree = agree && loop == unrolled && loop == threaded;
    const std::string threaded_name = course::format("%u threads x 4 sub-histograms", threads);
    for (const auto& [name, t] :
         {std::pair<std::string, course::Timing>{"the source's loop", t_loop},
          {"one thread, 4 sub-histograms", t_unrolled},
          {threaded_name, t_threaded}}) {
      std::printf("%-10s %-36s %10.3f %8.2f\n", lesson01::dists().name(d).c_str(), name.c_str(),
                  t.median_ms, static_cast<double>(n) / (t.median_ms * 1e6));
    }
  }
  std::printf("\nthe three versions %s\n", agree ? "agree on every input" : "DISAGREE");
  return agree ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program("lesson01_cpu", [&] { return run(argc, argv); });
}
