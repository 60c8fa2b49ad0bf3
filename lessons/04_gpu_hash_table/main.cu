// Lesson 04: a hash table built on the GPU, from the book's locked chains to open addressing at
// billions of keys a second. Runs the book's CPU table and std::unordered_map, then every GPU
// version and a sorted array (CUB radix sort, Thrust binary search) on the same keys; checks every
// table entry by entry and every lookup against std::unordered_map, and prints the table. Build
// alone, from this folder:
//   nvcc -O3 -std=c++17 -arch=native -lineinfo -I../../common main.cu -o lesson04
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"

namespace {

constexpr double kBudgetMs = 3000.0;  // per version: stop after 3 runs when they are this slow

struct Options {
  course::StandardOptions common;
  std::string dist = "random";
  double load_factor = 0.5;
  int blocks = 0;
  int cpu_reps = 3;
  bool show_race = false;
  bool bucket_sweep = false;
  bool load_sweep = false;
  bool book_hash = false;
};

Options parse(int argc, char** argv) {
  Options o;
  o.common.n = lesson04::kSeedKeys;
  course::CommandLine cli("lesson04",
                          "A GPU hash table: the book's CPU table, std::unordered_map, every GPU "
                          "version and a sorted array, on the same keys.");
  course::add_standard_options(cli, &o.common, "keys to insert", lesson04::kMaxKeys);
  cli.choice("--dist", &o.dist, lesson04::dist_names(), lesson04::dist_help());
  cli.real("--load-factor", &o.load_factor, "keys per slot of v4 and v5, and per bucket of v3",
           0.05, 1.0);
  cli.number("--blocks", &o.blocks, "grid of the chained versions, v0 to v3 (0: the book's 60)", 0,
             1 << 20);
  cli.number("--cpu-reps", &o.cpu_reps, "timed runs of each CPU version", 1, 1000);
  cli.flag("--show-race", &o.show_race,
           "run the book's GPU table (v0) 5 times at 60 blocks and at one block per SM, "
           "count the entries it loses, the same with the heads read from L2, and v1; adds v0's "
           "row to the table");
  cli.flag("--bucket-sweep", &o.bucket_sweep, "v1 and v2 with 2^10 to 2^24 buckets (exercise 4)");
  cli.flag("--load-sweep", &o.load_sweep,
           "v4 and v5 (windows of 4, 8 and 16 slots) at load factors 0.3 to 0.9 (exercise 4)");
  cli.flag("--book-hash", &o.book_hash,
           "v4 and v5 start a key at key % slots, the book's hash, instead of mixing its bits "
           "first (see how --dist dups or sequential fares)");
  course::parse_or_exit(cli, argc, argv);
  return o;
}

double mkeys_per_s(std::size_t n, double ms) {
  return static_cast<double>(n) / (ms * 1e3);
}

// The GPU's copy of the keys, the absent keys, the index sequence (the sort's values) and the
// answers of find.
struct DeviceData {
  course::DeviceBuffer<std::uint32_t> keys;
  course::DeviceBuffer<std::uint32_t> absent;
  course::DeviceBuffer<std::uint32_t> indices;
  course::DeviceBuffer<std::uint32_t> found;
};

// Runs find into d.found (poisoned first, untimed) and compares with `expected`.
template <typename Find>
std::pair<course::Timing, std::string> time_find(Find&& find, DeviceData& d, int reps,
                                                 const std::vector<std::uint32_t>& expected) {
  const course::Timing t =
      course::time_gpu([&] { d.found.fill_bytes(0xA5); }, find, reps, 2, nullptr, kBudgetMs);
  const std::vector<std::uint32_t> got = d.found.download();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    wrong += got[i] != expected[i];
  return {t, wrong == 0 ? std::string()
                        : course::format("%zu of %zu lookups wrong", wrong, got.size())};
}

// --show-race: the book's table, its heads read from L2, and v1, 5 runs each at the book's grid
// and at one block per SM.
// Returns whether v1 kept every entry every time.
bool show_race(const std::vector<std::uint32_t>& keys, DeviceData& d) {
  constexpr int kRuns = 5;
  const std::size_t n = keys.size();
  const int sms = course::sm_count();
  lesson04::ChainedTable table(lesson04::kSeedBuckets, n);
  std::printf(
      "\nthe race: %d runs per grid, %zu keys in %u buckets; the most entries lost in a run, of "
      "%zu\n%8s %7s | %-24s | %-24s | %-24s\n",
      kRuns, n, lesson04::kSeedBuckets, n, "blocks", "per SM", "v0, the book's locks",
      "v0, heads read from L2", "v1, correct locks");
  const lesson04::ChainedInsert inserts[] = {
      lesson04::insert_seed_lock<false>, lesson04::insert_seed_lock<true>, lesson04::insert_locked};
  bool v1_ok = true;
  for (int blocks : {lesson04::kSeedBlocks, sms}) {
    std::printf("%8d %7.2f", blocks, static_cast<double>(blocks) / sms);
    for (int which = 0; which < 3; ++which) {
      std::size_t worst = 0;
      int wrong = 0;
      for (int r = 0; r < kRuns; ++r) {
        table.clear();
        inserts[which](d.keys.data(), n, table, {nullptr, blocks});
        const lesson04::ChainCheck check = table.check(keys);
        if (!check.ok(n)) ++wrong;
        worst = std::max(worst, n - std::min(n, check.reachable));
      }
      if (which == 2 && wrong > 0) v1_ok = false;
      std::printf(" | %-24s",
                  course::format("%d of %d wrong, %zu lost", wrong, kRuns, worst).c_str());
    }
    std::printf("\n");
  }
  return v1_ok;
}

// Exercise 4: the chained versions against the bucket count.
void print_bucket_sweep(const std::vector<std::uint32_t>& keys, DeviceData& d, int reps,
                        int blocks) {
  const std::size_t n = keys.size();
  std::printf(
      "\nbucket sweep: Mkeys/s of v1 (a lock per bucket) and v2 (a CAS on the head) by bucket "
      "count,\n%d blocks of %d threads\n%10s %12s %12s  %s\n",
      blocks > 0 ? blocks : lesson04::kSeedBlocks, lesson04::kThreads, "buckets", "v1", "v2",
      "check");
  for (int log2 = 10; log2 <= 24; log2 += 2) {
    lesson04::ChainedTable table(std::size_t{1} << log2, n);
    std::printf("%10s", course::size_text(std::size_t{1} << log2).c_str());
    bool ok = true;
    for (lesson04::ChainedInsert insert : {lesson04::insert_locked, lesson04::insert_lock_free}) {
      const course::Timing t =
          course::time_gpu([&] { table.clear(); },
                           [&] {
                             insert(d.keys.data(), n, table, {nullptr, blocks});
                           },
                           reps, 1, nullptr, kBudgetMs);
      ok = ok && table.check(keys).ok(n);
      std::printf(" %12.1f", mkeys_per_s(n, t.median_ms));
    }
    std::printf("  %s\n", ok ? "ok" : "FAIL");
  }
}

// Exercise 4: open addressing against the load factor, for v4 and v5 with three window sizes.
bool print_load_sweep(std::size_t n, DeviceData& d, int reps,
                      const std::vector<std::uint32_t>& expected_hits, lesson04::Hash hash) {
  struct Column {
    const char* name;
    lesson04::OpenInsert insert;
    lesson04::OpenFind find;
  };
  const Column columns[] = {
      {"v4", lesson04::insert_open, lesson04::find_open},
      {"v5 W=4", lesson04::insert_cooperative<4>, lesson04::find_cooperative<4>},
      {"v5 W=8", lesson04::insert_cooperative<8>, lesson04::find_cooperative<8>},
      {"v5 W=16", lesson04::insert_cooperative<16>, lesson04::find_cooperative<16>},
  };
  const std::vector<std::uint32_t> misses(n, lesson04::kNotFound);
  std::printf(
      "\nload sweep: Gkeys/s of insert / find (present) / find (absent), by load factor (keys "
      "over slots)\n%6s",
      "load");
  for (const Column& c : columns)
    std::printf(" %20s", c.name);
  std::printf("  check\n");
  bool all_ok = true;
  for (int tenths = 3; tenths <= 9; ++tenths) {
    lesson04::OpenTable table(lesson04::capacity_for(n, tenths / 10.0), hash);
    std::printf("%6.1f", tenths / 10.0);
    bool ok = true;
    for (const Column& c : columns) {
      const course::Timing insert =
          course::time_gpu([&] { table.clear(); }, [&] { c.insert(d.keys.data(), n, table, {}); },
                           reps, 1, nullptr, kBudgetMs);
      table.throw_if_full();
      const auto hit = time_find([&] { c.find(d.keys.data(), n, table, d.found.data(), {}); }, d,
                                 reps, expected_hits);
      const auto miss = time_find([&] { c.find(d.absent.data(), n, table, d.found.data(), {}); }, d,
                                  reps, misses);
      ok = ok && hit.second.empty() && miss.second.empty();
      std::printf(" %6.2f /%5.2f /%5.2f", mkeys_per_s(n, insert.median_ms) / 1e3,
                  mkeys_per_s(n, hit.first.median_ms) / 1e3,
                  mkeys_per_s(n, miss.first.median_ms) / 1e3);
    }
    std::printf("  %s\n", ok ? "ok" : "FAIL");
    all_ok = all_ok && ok;
  }
  return all_ok;
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const std::string command = course::command_text("lesson04", argc, argv);
  const std::size_t n = o.common.n;
  const lesson04::Dist dist = lesson04::parse_dist(o.dist);
  const std::size_t slots = lesson04::capacity_for(n, o.load_factor);
  const lesson04::Hash hash = o.book_hash ? lesson04::Hash::book : lesson04::Hash::mixed;
  std::printf(
      "lesson04: a hash table of %zu keys (%s, seed %llu), values their indices; load factor "
      "%.2f\n\n",
      n, o.dist.c_str(), static_cast<unsigned long long>(o.common.seed), o.load_factor);
  // Four arrays of n words, the chained pool (16 bytes an entry) and the largest table.
  course::require_memory_for("lesson04", n,
                             16 * n + std::max(16 * n + 8 * slots, 8 * slots + 16 * n));
  const std::vector<std::uint32_t> keys = lesson04::make_keys(n, dist, o.common.seed);
  const std::vector<std::uint32_t> absent = lesson04::make_absent_keys(n, keys, o.common.seed + 1);

  // The CPU: the book's table, and std::unordered_map (the reference) for build and lookup.
  lesson04::Map map;
  std::vector<std::uint32_t> expected_hits;
  course::Timing cpu_seed;
  course::Timing cpu_map;
  course::Timing cpu_hit;
  course::Timing cpu_miss;
  {
    course::NvtxRange range("CPU");
    lesson04::SeedTable book(1, 1);
    cpu_seed = course::time_cpu(
        [&] { book = lesson04::build_seed_table(keys, lesson04::kSeedBuckets); }, o.cpu_reps, 0);
    const std::string seed_check =
        lesson04::check_chains(book.heads(), book.pool().data(), book.pool().size(), keys.data(), n)
            .text(n);
    std::printf("the book's CPU table, %u buckets:     %10.3f ms  %8.1f Mkeys/s  (%s)\n",
                lesson04::kSeedBuckets, cpu_seed.median_ms, mkeys_per_s(n, cpu_seed.median_ms),
                seed_check.c_str());
    // Freeing the previous run's map (26 million nodes) is not part of the build: prepare does it.
    cpu_map = course::time_cpu([&] { map = lesson04::Map(); },
                               [&] { map = lesson04::reference_map(keys); }, o.cpu_reps, 0);
    std::printf(
        "std::unordered_map, insert_or_assign: %10.3f ms  %8.1f Mkeys/s  (%zu distinct keys)\n",
        cpu_map.median_ms, mkeys_per_s(n, cpu_map.median_ms), map.size());
    // One thread, as a user would write the loop.
    std::vector<std::uint32_t> answers(n);
    auto find_all = [&](const std::vector<std::uint32_t>& queries) {
      for (std::size_t i = 0; i < n; ++i) {
        const auto it = map.find(queries[i]);
        answers[i] = it == map.end() ? lesson04::kNotFound : it->second;
      }
    };
    cpu_hit = course::time_cpu([&] { find_all(keys); }, o.cpu_reps, 0);
    expected_hits = answers;
    cpu_miss = course::time_cpu([&] { find_all(absent); }, o.cpu_reps, 0);
    std::printf("std::unordered_map, find (present):   %10.3f ms  %8.1f Mkeys/s\n",
                cpu_hit.median_ms, mkeys_per_s(n, cpu_hit.median_ms));
    std::printf("std::unordered_map, find (absent):    %10.3f ms  %8.1f Mkeys/s\n\n",
                cpu_miss.median_ms, mkeys_per_s(n, cpu_miss.median_ms));
  }

  const course::DeviceReport report = course::require_gpu_or_exit("lesson04");
  std::vector<std::uint32_t> iota(n);
  std::iota(iota.begin(), iota.end(), 0u);
  DeviceData d{course::DeviceBuffer<std::uint32_t>(keys),
               course::DeviceBuffer<std::uint32_t>(absent),
               course::DeviceBuffer<std::uint32_t>(iota), course::DeviceBuffer<std::uint32_t>(n)};
  const std::vector<std::uint32_t> misses(n, lesson04::kNotFound);

  course::ResultTable table(
      course::format("lesson04, %zu keys, %s, on %s%s; insert rows count 12 bytes a key (the "
                     "key read, an 8-byte entry written), find rows 16 (query, slot, answer)",
                     n, o.dist.c_str(), report.props.name,
                     o.book_hash ? ", v4 and v5 with the book's hash" : ""),
      report.copy_gbps, cpu_seed.median_ms, "the book's CPU table");
  const double insert_bytes = 12.0 * static_cast<double>(n);
  const double find_bytes = 16.0 * static_cast<double>(n);
  bool failed = false;
  // Rows and, per row, the CPU time of the same operation on std::unordered_map.
  std::vector<double> map_ms;
  auto add_row = [&](const std::string& name, const std::string& idea, const course::Timing& t,
                     double bytes, const std::string& problem, double cpu_ms, bool expected_ok) {
    course::TableRow row{name, idea, t, bytes, course::Check::ok, problem};
    if (!problem.empty()) {
      row.check = course::Check::fail;
      if (expected_ok) failed = true;
    }
    table.add(row);
    map_ms.push_back(cpu_ms);
  };

  // The chained versions: copied back, rebased and walked after the timed runs.
  const int chained_blocks = o.blocks > 0 ? o.blocks : lesson04::kSeedBlocks;
  {
    lesson04::ChainedTable seed_sized(lesson04::kSeedBuckets, n);
    lesson04::ChainedTable load_sized(slots, n);
    auto run_chained = [&](const char* name, const char* idea, lesson04::ChainedInsert insert,
                           lesson04::ChainedTable& t, bool expected_ok) {
      course::NvtxRange range((std::string(name) + " " + idea).c_str());
      const course::Timing timing =
          course::time_gpu([&] { t.clear(); },
                           [&] {
                             insert(d.keys.data(), n, t, {nullptr, chained_blocks});
                           },
                           o.common.reps, 1, nullptr, kBudgetMs);
      const lesson04::ChainCheck check = t.check(keys);
      add_row(name, idea, timing, insert_bytes, check.ok(n) ? "" : check.text(n),
              cpu_seed.median_ms, expected_ok);
    };
    if (o.show_race) {
      run_chained("v0", "the book's: a lock per bucket, taken lane by lane",
                  lesson04::insert_seed_lock<false>, seed_sized, false);
    }
    for (const lesson04::ChainedVersion& v : lesson04::chained_versions()) {
      run_chained(v.name, v.idea, v.insert, v.sized_from_load_factor ? load_sized : seed_sized,
                  true);
    }
  }

  // Open addressing: the table against the map, then find for present and absent keys.
  struct FindRow {
    std::string name;
    std::string idea;
    course::Timing hit;
    std::string hit_problem;
    course::Timing miss;
    std::string miss_problem;
  };
  std::vector<FindRow> finds;
  {
    lesson04::OpenTable open(slots, hash);
    for (const lesson04::OpenVersion& v : lesson04::open_versions()) {
      course::NvtxRange range((std::string(v.name) + " " + v.idea).c_str());
      const course::Timing t =
          course::time_gpu([&] { open.clear(); }, [&] { v.insert(d.keys.data(), n, open, {}); },
                           o.common.reps, 2, nullptr, kBudgetMs);
      std::string problem;
      try {
        open.throw_if_full();
        const lesson04::SlotCheck check = open.check(map, n);
        if (!check.ok(map)) problem = check.text(map);
      } catch (const std::length_error& e) {
        problem = e.what();
      }
      add_row(v.name, v.idea, t, insert_bytes, problem, cpu_map.median_ms, true);
      const auto hit = time_find([&] { v.find(d.keys.data(), n, open, d.found.data(), {}); }, d,
                                 o.common.reps, expected_hits);
      const auto miss = time_find([&] { v.find(d.absent.data(), n, open, d.found.data(), {}); }, d,
                                  o.common.reps, misses);
      finds.push_back({v.name, v.idea, hit.first, hit.second, miss.first, miss.second});
    }
  }
  {
    course::NvtxRange range("CUB radix sort, Thrust binary search");
    lesson04::SortedTable sorted(n);
    const course::Timing t =
        course::time_gpu([] {}, [&] { sorted.build(d.keys.data(), d.indices.data(), n); },
                         o.common.reps, 2, nullptr, kBudgetMs);
    const auto hit = time_find([&] { sorted.find(d.keys.data(), n, d.found.data()); }, d,
                               o.common.reps, expected_hits);
    const auto miss = time_find([&] { sorted.find(d.absent.data(), n, d.found.data()); }, d,
                                o.common.reps, misses);
    // The sorted array is checked through its lookups.
    add_row("CUB", "sorted array: cub::DeviceRadixSort::SortPairs", t, insert_bytes, hit.second,
            cpu_map.median_ms, true);
    finds.push_back({"Thr", "sorted array: thrust::upper_bound", hit.first, hit.second, miss.first,
                     miss.second});
  }
  for (const FindRow& f : finds) {
    add_row(f.name + " find", f.idea + ", keys present", f.hit, find_bytes, f.hit_problem,
            cpu_hit.median_ms, true);
  }
  for (const FindRow& f : finds) {
    add_row(f.name + " miss", f.idea + ", keys absent", f.miss, find_bytes, f.miss_problem,
            cpu_miss.median_ms, true);
  }
  std::printf("%s\n", table.text().c_str());

  std::printf("%-9s %12s %14s %22s\n", "version", "Mkeys/s", "vs book's CPU",
              "vs std::unordered_map");
  for (std::size_t r = 0; r < table.rows().size(); ++r) {
    const course::TableRow& row = table.rows()[r];
    std::printf("%-9s %12.1f %13.1fx %21.1fx\n", row.version.c_str(),
                mkeys_per_s(n, row.time.median_ms), cpu_seed.median_ms / row.time.median_ms,
                map_ms[r] / row.time.median_ms);
  }
  std::printf(
      "(std::unordered_map: its build for insert rows, its find for find rows; one CPU "
      "thread)\n\n");

  // The whole trip: the keys in (from pageable memory), v4's insert and find, the answers out.
  {
    course::NvtxRange range("whole trip");
    course::DeviceBuffer<std::uint32_t> copy(n);
    lesson04::OpenTable open(slots, hash);
    std::vector<std::uint32_t> answers(n);
    const course::Trip trip = course::time_whole_trip(
        [&] { copy.upload(keys); },
        [&] {
          open.clear();
          lesson04::insert_open(copy.data(), n, open, {});
          lesson04::find_open(copy.data(), n, open, d.found.data(), {});
          CUDA_CHECK(cudaMemcpy(answers.data(), d.found.data(), n * sizeof(std::uint32_t),
                                cudaMemcpyDeviceToHost));
        });
    std::printf("%s\n", course::whole_trip_text("v4 insert + find", trip, 3,
                                                static_cast<double>(n * sizeof(std::uint32_t)))
                            .c_str());
    if (answers != expected_hits) {
      std::printf("whole trip: the answers are wrong\n");
      failed = true;
    }
  }

  course::write_table_csv(table, o.common.csv, "04", report, command, n,
                          o.book_hash ? o.dist + ", book's hash" : o.dist,
                          {{"size", course::size_text(n) + " keys"}});
  if (o.show_race && !show_race(keys, d)) failed = true;
  if (o.bucket_sweep) print_bucket_sweep(keys, d, o.common.reps, o.blocks);
  if (o.load_sweep && !print_load_sweep(n, d, o.common.reps, expected_hits, hash)) failed = true;
  return failed ? course::kExitCheckFailed : course::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program("lesson04", [&] { return run(argc, argv); });
}
