// Lesson 03 on the CPU alone: the dot product of two float arrays by one loop in float, and by
// every core in double (the reference), with the book's closed-form check for its own input.
// Build alone:
//   g++ -O3 -std=c++17 -pthread -I../../common cpu.cpp -o lesson03_cpu
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>

#include "cli.hpp"
#include "format.hpp"
#include "reference.hpp"
#include "timing.hpp"

namespace {

int run(int argc, char** argv) {
  std::size_t n = std::size_t{33} << 20;
  std::uint64_t seed = course::kDefaultSeed;
  lesson03::Dist dist = lesson03::Dist::source;
  int reps = 5;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  course::CommandLine cli("lesson03_cpu", "The dot product of two float arrays on the CPU.");
  cli.cpu_only();
  course::add_standard_flags(cli, &n, &seed, &reps, "elements of each array")
      .choice("--dist", &dist, lesson03::dists())
      .number("--threads", &threads, "threads for the threaded version", 1u, 1024u);
  course::parse_or_exit(cli, argc, argv);
  // Two arrays of n floats.
  course::require_host_memory(cli.program(), course::format("--n %zu", n),
                              8.0 * static_cast<double>(n));
  const lesson03::Inputs in = lesson03::make_inputs(n, dist, seed);
  std::printf("lesson03_cpu: dot product of two arrays of %zu floats, %s, median of %d runs\n\n", n,
              lesson03::dists().name(dist).c_str(), reps);

  float in_float = 0;
  lesson03::Reference ref;
  const course::Timing t_float = course::time_cpu(
      [&] { in_float = lesson03::dot_in_float(in.a.data(), in.b.data(), n); }, reps);
  const course::Timing t_double = course::time_cpu(
      [&] { ref = lesson03::reference_dot(in.a.data(), in.b.data(), n, threads); }, reps);
  const double gb = static_cast<double>(2 * n * sizeof(float)) / 1e9;
  std::printf("%-28s %10s %8s  %s\n", "version", "ms", "GB/s", "dot");
  std::printf("%-28s %10.3f %8.2f  %.10g\n", "one loop in float", t_float.median_ms,
              gb / (t_float.median_ms / 1e3), static_cast<double>(in_float));
  std::printf("%-28s %10.3f %8.2f  %.10g\n",
              course::format("%u threads in double", threads).c_str(), t_double.median_ms,
              gb / (t_double.median_ms / 1e3), ref.dot);
  std::printf("\nthe float loop is off by %.3g of the double result\n",
              std::fabs(static_cast<double>(in_float) - ref.dot) / std::fabs(ref.dot));
  if (dist == lesson03::Dist::source) {
    const double closed = lesson03::source_closed_form(n);
    std::printf("the book's check, 2 sum i^2 = %.10g: the double result is off by %.3g of it\n",
                closed, std::fabs(ref.dot - closed) / closed);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program("lesson03_cpu", [&] { return run(argc, argv); });
}
