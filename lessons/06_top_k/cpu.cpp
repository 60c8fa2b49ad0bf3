// Lesson 06 on the CPU alone: the source's CPU program, one insertion list over the whole input
// (the k largest distinct values), beside std::partial_sort and std::nth_element with a sort (the k
// largest with duplicates), with the source's `{0}` start of the list as an option. Build alone:
//   g++ -O3 -std=c++17 -pthread -I../../common cpu.cpp -o lesson06_cpu
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "cli.hpp"
#include "format.hpp"
#include "reference.hpp"
#include "timing.hpp"

namespace {

struct Options {
  std::size_t n = lesson06::kSourceN;
  std::size_t k = lesson06::kSourceK;
  std::uint64_t seed = course::kDefaultSeed;
  lesson06::Dist dist = lesson06::Dist::source;
  std::string type = "int";
  int reps = 3;
  bool source_init = false;
};

template <typename T>
void print_values(const char* what, const std::vector<T>& values) {
  std::printf("%-34s", what);
  for (std::size_t j = 0; j < values.size() && j < 10; ++j) {
    if (std::is_integral<T>::value) {
      std::printf(" %lld", static_cast<long long>(values[j]));
    } else {
      std::printf(" %.9g", static_cast<double>(values[j]));
    }
  }
  std::printf("%s\n", values.size() > 10 ? " ..." : "");
}

template <typename T>
int run(const Options& o) {
  const std::vector<T> in = lesson06::make_input<T>(o.n, o.dist, o.seed);
  std::printf("lesson06_cpu: the top %zu of %zu %ss, %s, median of %d runs\n\n", o.k, o.n,
              o.type.c_str(), lesson06::dists().name(o.dist).c_str(), o.reps);
  std::vector<T> top;
  const course::Timing t_select =
      course::time_cpu([&] { top = lesson06::reference_top_k(in, o.k); }, o.reps);
  std::vector<T> partial;
  const course::Timing t_partial =
      course::time_cpu([&] { partial = lesson06::partial_sort_top_k(in, o.k); }, o.reps);
  const lesson06::ListStart start =
      o.source_init ? lesson06::ListStart::source_cpu : lesson06::ListStart::lowest;
  std::vector<T> source_list;
  const course::Timing t_source =
      course::time_cpu([&] { source_list = lesson06::source_cpu_top_k(in, o.k, start); }, o.reps);
  const std::vector<T> distinct = lesson06::reference_top_k_distinct(in, o.k);

  const std::string partial_check = lesson06::top_k_mismatch(partial, nullptr, top, in);
  const std::string source_check = lesson06::top_k_mismatch(source_list, nullptr, distinct, in);
  std::printf("%-44s %12s  %s\n", "method", "median ms", "result");
  std::printf("%-44s %12.4f  %s\n", "std::nth_element + sort (with duplicates)", t_select.median_ms,
              "the reference");
  std::printf("%-44s %12.4f  %s\n", "std::partial_sort (with duplicates)", t_partial.median_ms,
              partial_check.empty() ? "same as the reference" : ("FAIL: " + partial_check).c_str());
  std::printf(
      "%-44s %12.4f  %s\n",
      o.source_init ? "the source's insertion list, {0} start" : "the source's insertion list",
      t_source.median_ms,
      source_check.empty() ? "the k largest distinct values: ok"
                           : ("FAIL against the k largest distinct: " + source_check).c_str());
  std::printf("\n");
  print_values("top k, with duplicates:", top);
  print_values("the source's list (distinct):", source_list);
  return partial_check.empty() && (source_check.empty() || o.source_init) ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program("lesson06_cpu", [&] {
    Options o;
    course::CommandLine cli("lesson06_cpu",
                            "The source's CPU top-k (an insertion list) beside std::partial_sort "
                            "and std::nth_element.");
    course::add_standard_flags(cli, &o.n, &o.seed, &o.reps, "values to select from",
                               std::numeric_limits<std::size_t>::max(),
                               "timed runs per method; the median is reported")
        .number("--k", &o.k, "how many of the largest to find (1 to n)", std::size_t{0})
        .choice("--dist", &o.dist, lesson06::dists())
        .choice("--type", &o.type, {"int", "float"}, "the values' type")
        .flag(
            "--source-init", &o.source_init,
            "start the list as the source's CPU version does, at {0}: every slot 0 (exit status 0 "
            "even when that is wrong)")
        .old_name("--seed-init", "--source-init");
    cli.cpu_only();
    course::parse_or_exit(cli, argc, argv);
    // The input (4 bytes a value) and one copy of its keys at a time (4 bytes a value), which
    // nth_element, partial_sort and the distinct reference each work on.
    course::require_host_memory(cli.program(), course::format("--n %zu", o.n),
                                8.0 * static_cast<double>(o.n));
    const std::string bad_k = course::range_error("--k", o.k, 1, "n", o.n);  // 0 included: n named
    if (!bad_k.empty()) course::usage_error(cli, bad_k);
    return o.type == "float" ? run<float>(o) : run<std::int32_t>(o);
  });
}
