// Lesson 04 on the CPU alone: the book's chained table (1024 buckets, entries from a pool, each
// inserted at the head of its bucket), checked entry by entry, and std::unordered_map, the table a
// C++ user would pick, for insert and for find. Build alone:
//   g++ -O3 -std=c++17 -pthread -I../../common cpu.cpp -o lesson04_cpu
#include <cstdio>
#include <string>

#include "cli.hpp"
#include "format.hpp"
#include "reference.hpp"
#include "timing.hpp"

namespace {

int run(int argc, char** argv) {
  std::size_t n = lesson04::kSourceKeys;
  std::uint64_t seed = course::kDefaultSeed;
  lesson04::Dist dist = lesson04::Dist::random;
  std::uint32_t buckets = lesson04::kSourceBuckets;
  int reps = 3;
  course::CommandLine cli("lesson04_cpu",
                          "The book's chained hash table and std::unordered_map, on the CPU.");
  cli.cpu_only();
  course::add_standard_flags(cli, &n, &seed, &reps, "keys to insert", lesson04::kMaxKeys,
                             "timed runs per version; the median is reported", 1000)
      .choice("--dist", &dist, lesson04::dists())
      .number("--buckets", &buckets, "buckets of the book's table", 1u, 0xFFFFFFFFu);
  course::parse_or_exit(cli, argc, argv);
  // The keys (4 bytes each), the book's pool of entries (16 each) and its heads (8 per bucket), and
  // std::unordered_map of the first keys: a copy of them (4), a node per key (16 bytes, 32 with the
  // allocator's own) and a bucket pointer per key (8).
  const double timed_keys = static_cast<double>(lesson04::map_timed_keys(n));
  course::require_host_memory(
      cli.program(), course::format("--n %zu", n),
      20.0 * static_cast<double>(n) + 8.0 * static_cast<double>(buckets) + 44.0 * timed_keys);

  const std::vector<std::uint32_t> keys = lesson04::make_keys(n, dist, seed);
  const double per_ms = static_cast<double>(n) / 1e3;
  std::printf("lesson04_cpu: %zu keys (%s, seed %llu)\n", n, lesson04::dists().name(dist).c_str(),
              static_cast<unsigned long long>(seed));

  lesson04::SourceTable table(1, 1);
  const course::Timing book =
      course::time_cpu([&] { table = lesson04::build_source_table(keys, buckets); }, reps, 0);
  const lesson04::ChainCheck check = lesson04::check_chains(table.heads(), table.pool().data(),
                                                            table.pool().size(), keys.data(), n);
  std::printf("the book's table, %u buckets:        %10.3f ms  %8.1f Mkeys/s  %s: %s\n", buckets,
              book.median_ms, per_ms / book.median_ms, check.ok(n) ? "ok" : "FAIL",
              check.text(n).c_str());

  // std::unordered_map at its rate on the first keys (map_timed_keys): a full build takes seconds.
  const std::size_t m = lesson04::map_timed_keys(n);
  const std::vector<std::uint32_t> first(keys.begin(), keys.begin() + m);
  const double m_per_ms = static_cast<double>(m) / 1e3;
  const std::string timed_on =
      course::format("rate of the first %s keys", course::size_text(m).c_str());
  lesson04::Map map;
  const course::Timing build = course::time_cpu(
      [&] { map = lesson04::Map(); }, [&] { map = lesson04::reference_map(first); }, reps, 0);
  std::printf(
      "std::unordered_map, insert_or_assign: %10.3f ms  %8.1f Mkeys/s  (%s; %zu distinct)\n",
      build.median_ms * n / m, m_per_ms / build.median_ms, timed_on.c_str(), map.size());
  std::size_t found = 0;
  const course::Timing find = course::time_cpu(
      [&] {
        found = 0;
        for (std::uint32_t key : first)
          found += map.find(key) != map.end();
      },
      reps, 0);
  std::printf("std::unordered_map, find (present):   %10.3f ms  %8.1f Mkeys/s  %s (%s)\n",
              find.median_ms * n / m, m_per_ms / find.median_ms, found == m ? "ok" : "FAIL",
              timed_on.c_str());
  return check.ok(n) && found == m ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program("lesson04_cpu", [&] { return run(argc, argv); });
}
