// Lesson 05 on the CPU alone: the source's host program, an odd-even transposition sort of the
// source's shuffled 0..n-1 with the source's check (c[k] == k), beside std::sort in totalOrder and
// std::sort with a plain a < b. Build alone:
//   g++ -O3 -std=c++17 -pthread -I../../common cpu.cpp -o lesson05_cpu
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli.hpp"
#include "format.hpp"
#include "reference.hpp"
#include "timing.hpp"

namespace {

int run(int argc, char** argv) {
  std::size_t n = lesson05::kSourceN;
  std::uint64_t seed = course::kDefaultSeed;
  lesson05::Dist dist = lesson05::Dist::perm;
  int reps = 5;
  course::CommandLine cli("lesson05_cpu",
                          "The source's host odd-even sort beside std::sort, on the CPU.");
  cli.cpu_only();
  course::add_standard_flags(cli, &n, &seed, &reps, "floats to sort")
      .choice("--dist", &dist, lesson05::dists());
  course::parse_or_exit(cli, argc, argv);
  // The input, the reference's sorted copy, and one more copy for each other sort.
  course::require_host_memory(cli.program(), course::format("--n %zu", n),
                              12.0 * static_cast<double>(n));
  const std::vector<float> in = lesson05::make_input(n, dist, seed);
  std::printf("lesson05_cpu: sorting %zu floats, %s, median of %d runs\n\n", n,
              lesson05::dists().name(dist).c_str(), reps);

  std::vector<float> expected;
  const course::Timing t_total =
      course::time_cpu([&] { expected = lesson05::reference_sort(in); }, reps);
  bool has_nan = false;
  for (float x : in)
    has_nan = has_nan || std::isnan(x);
  std::printf("%-34s %12s  %s\n", "version", "median ms", "result");
  std::printf("%-34s %12.4f  %s\n", "std::sort in totalOrder", t_total.median_ms, "the reference");
  // With a NaN among the values, a < b is not a strict weak order, and std::sort may do anything
  // (read past the end of the array, even): it is not run.
  if (has_nan) {
    std::printf("%-34s %12s  not run: the input holds NaNs\n", "std::sort with a < b", "-");
  } else {
    std::vector<float> plain;
    const course::Timing t_plain =
        course::time_cpu([&] { plain = in; }, [&] { std::sort(plain.begin(), plain.end()); }, reps);
    const std::string m = lesson05::sort_mismatch(plain.data(), expected, true);
    std::printf("%-34s %12.4f  %s\n", "std::sort with a < b", t_plain.median_ms,
                m.empty() ? "same as the reference (-0.0 == +0.0)" : ("differs: " + m).c_str());
  }
  bool ok = true;
  if (n <= lesson05::kCpuProgramOddEvenMaxN) {
    std::vector<float> copy;
    const course::Timing t = course::time_cpu(
        [&] { copy = in; }, [&] { lesson05::odd_even_sort(copy.data(), n); }, reps);
    const std::string m = lesson05::sort_mismatch(copy.data(), expected);
    ok = m.empty();
    std::printf("%-34s %12.4f  %s\n", "the source's odd-even sort", t.median_ms,
                ok ? "same as the reference" : ("FAIL: " + m).c_str());
    std::printf("\nthe odd-even sort takes %.1fx std::sort's time (%.3g comparisons)\n",
                t.median_ms / t_total.median_ms, lesson05::odd_even_comparisons(n));
  } else {
    std::printf("%-34s %12s  not run past n = %s (quadratic)\n", "the source's odd-even sort", "-",
                course::size_text(lesson05::kCpuProgramOddEvenMaxN).c_str());
  }
  if (dist == lesson05::Dist::perm && n <= (std::size_t{1} << 24)) {
    std::printf("the source's check, c[k] == k: %s\n",
                lesson05::source_check(expected.data(), n) ? "ok" : "FAIL");
  }
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program("lesson05_cpu", [&] { return run(argc, argv); });
}
