// Lesson 02 on the CPU alone: the sum of n numbers by one loop in the element's type, by one loop
// in a wider type, and by every core; with the float results side by side, to show what the order
// of additions does to a float sum. Build alone:
//   g++ -O3 -std=c++17 -pthread -I../../common cpu.cpp -o lesson02_cpu
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "format.hpp"
#include "reference.hpp"
#include "timing.hpp"

namespace {

template <typename T>
void run_typed(std::size_t n, std::uint64_t seed, int reps, unsigned threads) {
  const std::vector<T> x = lesson02::make_input<T>(n, lesson02::Dist::uniform, seed);
  const bool is_int = std::is_integral<T>::value;
  T narrow = 0;
  lesson02::Wide<T> wide = 0;
  lesson02::Wide<T> parallel = 0;
  const course::Timing t_narrow =
      course::time_cpu([&] { narrow = lesson02::sum_in_order(x.data(), n); }, reps);
  const course::Timing t_wide =
      course::time_cpu([&] { wide = lesson02::reference_sum(x.data(), n); }, reps);
  const course::Timing t_parallel = course::time_cpu(
      [&] { parallel = lesson02::reference_sum_threads(x.data(), n, threads); }, reps);
  const char* type = is_int ? "int" : "float";
  const char* wide_type = is_int ? "int64" : "double";
  auto line = [&](const std::string& name, const course::Timing& t, double sum) {
    std::printf("%-6s %-34s %10.3f %8.2f  %.10g\n", type, name.c_str(), t.median_ms,
                static_cast<double>(n * sizeof(T)) / (t.median_ms * 1e6), sum);
  };
  line(course::format("one loop in %s", type), t_narrow, static_cast<double>(narrow));
  line(course::format("one loop in %s", wide_type), t_wide, static_cast<double>(wide));
  line(course::format("%u threads in %s", threads, wide_type), t_parallel,
       static_cast<double>(parallel));
}

int run(int argc, char** argv) {
  std::size_t n = std::size_t{1} << 25;
  std::uint64_t seed = course::kDefaultSeed;
  int reps = 5;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  course::CommandLine cli("lesson02_cpu", "The sum of n floats and of n ints on the CPU.");
  cli.cpu_only();
  course::add_standard_flags(cli, &n, &seed, &reps, "elements to sum")
      .number("--threads", &threads, "threads for the threaded version", 1u, 1024u);
  course::parse_or_exit(cli, argc, argv);
  // One input at a time: n floats, then n ints.
  course::require_host_memory(cli.program(), course::format("--n %zu", n),
                              4.0 * static_cast<double>(n));
  std::printf(
      "lesson02_cpu: sum of %zu elements (floats uniform in [-1, 1), ints in [-8, 8]), "
      "seed %llu, median of %d runs\n\n",
      n, static_cast<unsigned long long>(seed), reps);
  std::printf("%-6s %-34s %10s %8s  %s\n", "type", "version", "ms", "GB/s", "sum");
  run_typed<float>(n, seed, reps, threads);
  run_typed<int>(n, seed, reps, threads);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program("lesson02_cpu", [&] { return run(argc, argv); });
}
