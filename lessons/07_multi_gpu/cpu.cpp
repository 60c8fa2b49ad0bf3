// Lesson 07 on the CPU alone: the same cut into shares and the same rank-order combine, with
// threads as the ranks. Each thread computes its share's partial (lesson 01's histogram, lesson
// 03's dot product in double); the partials are then added in rank order. It prints the speed-up
// and parallel efficiency at 1, 2, 4, ... threads, the scaling table lesson07 prints for GPUs.
// Build alone:
//   g++ -O3 -std=c++17 -pthread -I../../common -I.. cpu.cpp -o lesson07_cpu
#include <cstdio>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "format.hpp"
#include "reference.hpp"
#include "timing.hpp"

namespace {

// Runs body(rank, share) on `ranks` threads, one share each, and waits for them.
template <typename Body>
void on_ranks(std::size_t n, int ranks, Body body) {
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] { body(r, lesson07::share_of(n, ranks, r)); });
  for (std::thread& t : threads)
    t.join();
}

int run(int argc, char** argv) {
  std::size_t n = std::size_t{1} << 28;
  std::uint64_t seed = course::kDefaultSeed;
  int reps = 5;
  std::string work = "hist";
  unsigned max_threads = std::max(1u, std::thread::hardware_concurrency());
  course::CommandLine cli("lesson07_cpu",
                          "Strong scaling on the CPU: threads as ranks, partials added in order.");
  cli.cpu_only();
  course::add_standard_flags(cli, &n, &seed, &reps, "bytes (hist) or floats per array (dot)",
                             std::numeric_limits<std::size_t>::max(),
                             "timed runs per thread count; the median is reported")
      .choice("--work", &work, {"hist", "dot"}, "what to compute")
      .number("--threads", &max_threads, "the most threads to try", 1u, 1024u);
  course::parse_or_exit(cli, argc, argv);
  const bool hist = work == "hist";
  course::require_host_memory(cli.program(), course::format("--n %zu", n),
                              static_cast<double>(hist ? n : 2 * n * sizeof(float)));

  std::printf("lesson07_cpu: %s, n = %zu, seed %llu, median of %d runs\n\n",
              hist ? "histogram of random bytes" : "dot product of floats in [-1, 1)", n,
              static_cast<unsigned long long>(seed), reps);
  const std::vector<std::uint8_t> bytes =
      hist ? course::random_bytes(n, seed) : std::vector<std::uint8_t>{};
  const lesson03::Inputs in =
      hist ? lesson03::Inputs{} : lesson03::make_inputs(n, lesson03::Dist::uniform, seed);

  // One rank's partial: 256 counts, or the dot product in double (one value).
  auto partial = [&](lesson07::Share s) {
    std::vector<double> out;
    if (hist) {
      const lesson01::Histogram h =
          lesson01::histogram_cpu_unrolled(bytes.data() + s.begin, s.size());
      out.assign(h.begin(), h.end());
    } else {
      out.push_back(
          lesson03::reference_dot(in.a.data() + s.begin, in.b.data() + s.begin, s.size(), 1).dot);
    }
    return out;
  };

  std::printf("%8s %10s %9s %10s %10s\n", "threads", "median ms", "GB/s", "speed-up", "efficiency");
  const double bytes_read = hist ? static_cast<double>(n) : 2.0 * n * sizeof(float);
  double one = 0;
  std::vector<double> first;
  bool agree = true;
  std::vector<unsigned> counts;  // 1, 2, 4, ... and max_threads itself
  for (unsigned t = 1; t < max_threads; t *= 2)
    counts.push_back(t);
  counts.push_back(max_threads);
  for (const unsigned t : counts) {
    const int ranks = static_cast<int>(t);
    std::vector<double> result;
    const course::Timing time = course::time_cpu(
        [&] {
          const std::size_t width = hist ? lesson01::kBins : 1;
          std::vector<double> partials(width * t);
          on_ranks(n, ranks, [&](int r, lesson07::Share s) {
            const std::vector<double> p = partial(s);
            std::copy(p.begin(), p.end(),
                      partials.begin() + static_cast<std::ptrdiff_t>(r * width));
          });
          result = lesson07::combine_in_rank_order(partials, ranks);
        },
        reps);
    if (t == 1) {
      one = time.median_ms;
      first = result;
    }
    // Counts agree exactly; the dot products in double to within a few roundings.
    for (std::size_t i = 0; i < result.size(); ++i) {
      const double tolerance =
          hist ? 0.0 : 1e-12 * (1.0 + std::fabs(first[i])) * static_cast<double>(n);
      agree = agree && std::fabs(result[i] - first[i]) <= tolerance;
    }
    std::printf("%8u %10.3f %9.2f %9.2fx %9.0f%%\n", t, time.median_ms,
                bytes_read / (time.median_ms * 1e6), lesson07::speedup(one, time.median_ms),
                100.0 * lesson07::efficiency(one, time.median_ms, ranks));
  }
  std::printf("\nevery thread count gives %s\n", agree ? "the same answer" : "DIFFERENT answers");
  return agree ? course::kExitOk : course::kExitCheckFailed;
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program("lesson07_cpu", [&] { return run(argc, argv); });
}
