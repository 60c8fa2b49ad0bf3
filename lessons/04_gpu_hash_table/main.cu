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

struct Options {
  lesson04::Dist dist = lesson04::Dist::random;
  double load_factor = 0.5;
  int blocks = 0;
  bool show_race = false;
  bool bucket_sweep = false;
  bool load_sweep = false;
  bool book_hash = false;
};

void add_options(course::CommandLine& cli, Options* o) {
  cli.choice("--dist", &o->dist, lesson04::dists());
  cli.real("--load-factor", &o->load_factor, "keys per slot of v4 and v5, and per bucket of v3",
           0.05, 1.0);
  cli.number("--blocks", &o->blocks, "grid of the chained versions, v0 to v3 (0: the book's 60)", 0,
             1 << 20);
  cli.flag("--show-race", &o->show_race,
           "run the book's GPU table (v0) 5 times at 60 blocks and at one block per SM, "
           "count the entries it loses, the same with the heads read from L2, and v1; adds v0's "
           "row to the table");
  cli.flag("--bucket-sweep", &o->bucket_sweep, "v1 and v2 with 2^10 to 2^24 buckets (exercise 4)");
  cli.flag("--load-sweep", &o->load_sweep,
           "v4 and v5 (windows of 4, 8 and 16 slots) at load factors 0.3 to 0.9 (exercise 4)");
  cli.flag("--book-hash", &o->book_hash,
           "v4 and v5 start a key at key % slots, the book's hash, instead of mixing its bits "
           "first (see how --dist dups or sequential fares)");
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
  const course::Timing t = course::time_gpu([&] { d.found.fill_bytes(0xA5); }, find, reps, 2,
                                            nullptr, course::Lesson::kBudgetMs);
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
                           reps, 1, nullptr, course::Lesson::kBudgetMs);
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
                           reps, 1, nullptr, course::Lesson::kBudgetMs);
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

// The CPU: the book's table, and std::unordered_map (the reference) for build and lookup, as a
// user would write the loops, on one thread.
struct Cpu {
  lesson04::Map map;
  std::vector<std::uint32_t> hits;  // the answer to each key's lookup
  double book_ms = 0;
  double map_ms = 0;
  double hit_ms = 0;
  double miss_ms = 0;
};

Cpu run_cpu(course::Lesson& lesson, const std::vector<std::uint32_t>& keys,
            const std::vector<std::uint32_t>& absent) {
  const std::size_t n = keys.size();
  const int reps = lesson.cpu_reps();
  Cpu cpu;
  course::NvtxRange range("CPU");
  lesson04::SeedTable book(1, 1);
  cpu.book_ms =
      course::time_cpu([&] { book = lesson04::build_seed_table(keys, lesson04::kSeedBuckets); },
                       reps, 0)
          .median_ms;
  const std::string book_check =
      lesson04::check_chains(book.heads(), book.pool().data(), book.pool().size(), keys.data(), n)
          .text(n);
  std::printf("the book's CPU table, %u buckets:     %10.3f ms  %8.1f Mkeys/s  (%s)\n",
              lesson04::kSeedBuckets, cpu.book_ms, mkeys_per_s(n, cpu.book_ms), book_check.c_str());
  // Freeing the previous run's map (26 million nodes) is not part of the build: prepare does it.
  cpu.map_ms = course::time_cpu([&] { cpu.map = lesson04::Map(); },
                                [&] { cpu.map = lesson04::reference_map(keys); }, reps, 0)
                   .median_ms;
  std::printf(
      "std::unordered_map, insert_or_assign: %10.3f ms  %8.1f Mkeys/s  (%zu distinct keys)\n",
      cpu.map_ms, mkeys_per_s(n, cpu.map_ms), cpu.map.size());
  std::vector<std::uint32_t> answers(n);
  auto find_all = [&](const std::vector<std::uint32_t>& queries) {
    for (std::size_t i = 0; i < n; ++i) {
      const auto it = cpu.map.find(queries[i]);
      answers[i] = it == cpu.map.end() ? lesson04::kNotFound : it->second;
    }
  };
  cpu.hit_ms = course::time_cpu([&] { find_all(keys); }, reps, 0).median_ms;
  cpu.hits = answers;
  cpu.miss_ms = course::time_cpu([&] { find_all(absent); }, reps, 0).median_ms;
  std::printf("std::unordered_map, find (present):   %10.3f ms  %8.1f Mkeys/s\n", cpu.hit_ms,
              mkeys_per_s(n, cpu.hit_ms));
  std::printf("std::unordered_map, find (absent):    %10.3f ms  %8.1f Mkeys/s\n\n", cpu.miss_ms,
              mkeys_per_s(n, cpu.miss_ms));
  lesson.set_cpu(cpu.book_ms, "the book's CPU table");
  return cpu;
}

// "" when every answer in `found` is the expected one.
std::string wrong_answers(const course::DeviceBuffer<std::uint32_t>& found,
                          const std::vector<std::uint32_t>& expected) {
  const std::vector<std::uint32_t> got = found.download();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    wrong += got[i] != expected[i];
  return wrong == 0 ? std::string() : course::format("%zu of %zu lookups wrong", wrong, got.size());
}

// Each row's speed in keys a second, against the book's CPU table and against the same operation
// on std::unordered_map (`map_ms`, one per row).
void print_key_rates(const course::ResultTable& table, std::size_t n, double book_ms,
                     const std::vector<double>& map_ms) {
  std::printf("%-9s %12s %14s %22s\n", "version", "Mkeys/s", "vs book's CPU",
              "vs std::unordered_map");
  for (std::size_t r = 0; r < table.rows().size(); ++r) {
    const course::TableRow& row = table.rows()[r];
    if (row.check == course::Check::skipped) continue;
    std::printf("%-9s %12.1f %13.1fx %21.1fx\n", row.version.c_str(),
                mkeys_per_s(n, row.time.median_ms), book_ms / row.time.median_ms,
                map_ms[r] / row.time.median_ms);
  }
  std::printf(
      "(std::unordered_map: its build for insert rows, its find for find rows; one CPU "
      "thread)\n\n");
}

// Everything the versions read and write on the GPU, and the rows they make: each version, and
// per row the same operation's time on std::unordered_map.
struct Rows {
  std::size_t n;
  const std::vector<std::uint32_t>& keys;
  const Cpu& cpu;
  DeviceData& d;
  std::vector<course::Version> versions;
  std::vector<double> map_ms;

  void add(course::Version v, double cpu_ms) {
    versions.push_back(std::move(v));
    map_ms.push_back(cpu_ms);
  }
};

// The chained versions (v0 only with --show-race: the race it loses entries to is the point),
// checked by copying the table back and walking every chain.
void add_chained(Rows& rows, bool show_race, const lesson04::Launch& launch,
                 lesson04::ChainedTable* seed_sized, lesson04::ChainedTable* load_sized) {
  auto add = [&](const char* name, const char* idea, lesson04::ChainedInsert insert,
                 lesson04::ChainedTable* t, bool may_fail) {
    Rows* r = &rows;
    course::Version v{name,
                      idea,
                      "",
                      [r, insert, t, launch] { insert(r->d.keys.data(), r->n, *t, launch); },
                      [r, t] {
                        const lesson04::ChainCheck check = t->check(r->keys);
                        return check.ok(r->n) ? std::string() : check.text(r->n);
                      },
                      [t] { t->clear(); }};
    v.may_fail = may_fail;
    rows.add(std::move(v), rows.cpu.book_ms);
  };
  if (show_race) {
    add("v0", "the book's: a lock per bucket, taken lane by lane",
        lesson04::insert_seed_lock<false>, seed_sized, true);
  }
  for (const lesson04::ChainedVersion& v : lesson04::chained_versions())
    add(v.name, v.idea, v.insert, v.sized_from_load_factor ? load_sized : seed_sized, false);
}

// Open addressing, checked slot by slot against the map; the sorted array, through its lookups.
void add_open_and_sorted(Rows& rows, lesson04::OpenTable* open, lesson04::SortedTable* sorted) {
  Rows* r = &rows;
  for (const lesson04::OpenVersion& v : lesson04::open_versions()) {
    rows.add({v.name, v.idea, "", [r, v, open] { v.insert(r->d.keys.data(), r->n, *open, {}); },
              [r, open] {
                try {
                  open->throw_if_full();
                } catch (const std::length_error& e) {
                  return std::string(e.what());
                }
                const lesson04::SlotCheck check = open->check(r->cpu.map, r->n);
                return check.ok(r->cpu.map) ? std::string() : check.text(r->cpu.map);
              },
              [open] { open->clear(); }},
             rows.cpu.map_ms);
  }
  rows.add({"CUB", "sorted array: cub::DeviceRadixSort::SortPairs", "",
            [r, sorted] { sorted->build(r->d.keys.data(), r->d.indices.data(), r->n); },
            [r, sorted] {
              sorted->find(r->d.keys.data(), r->n, r->d.found.data());
              return wrong_answers(r->d.found, r->cpu.hits);
            }},
           rows.cpu.map_ms);
}

// Find, for present keys and for absent ones, on each table built again (untimed) first.
void add_finds(Rows& rows, lesson04::OpenTable* open, lesson04::SortedTable* sorted,
               const std::vector<std::uint32_t>* misses) {
  Rows* r = &rows;
  const double bytes = 16.0 * static_cast<double>(rows.n);  // query, slot, answer
  for (const bool present : {true, false}) {
    const std::uint32_t* queries = present ? rows.d.keys.data() : rows.d.absent.data();
    const std::vector<std::uint32_t>* expected = present ? &rows.cpu.hits : misses;
    const std::string row = present ? " find" : " miss";
    const std::string which = present ? ", keys present" : ", keys absent";
    const double cpu_ms = present ? rows.cpu.hit_ms : rows.cpu.miss_ms;
    const auto check = [r, expected] { return wrong_answers(r->d.found, *expected); };
    for (const lesson04::OpenVersion& v : lesson04::open_versions()) {
      rows.add({v.name + row,
                v.idea + which,
                "",
                [r, v, open, queries] { v.find(queries, r->n, *open, r->d.found.data(), {}); },
                check,
                {},
                [r, v, open] {
                  open->clear();
                  v.insert(r->d.keys.data(), r->n, *open, {});
                },
                bytes},
               cpu_ms);
    }
    rows.add({"Thr" + row,
              "sorted array: thrust::upper_bound" + which,
              "",
              [r, sorted, queries] { sorted->find(queries, r->n, r->d.found.data()); },
              check,
              {},
              [r, sorted] { sorted->build(r->d.keys.data(), r->d.indices.data(), r->n); },
              bytes},
             cpu_ms);
  }
}

int run(course::Lesson& lesson, const Options& o) {
  const std::size_t n = lesson.n();
  const std::uint64_t seed = lesson.options().seed;
  const std::size_t slots = lesson04::capacity_for(n, o.load_factor);
  const lesson04::Hash hash = o.book_hash ? lesson04::Hash::book : lesson04::Hash::mixed;
  const std::string dist = lesson04::dists().name(o.dist);
  // Four arrays of n words, the chained pool (16 bytes an entry) and the largest table.
  lesson.begin(course::format("a hash table of %zu keys (%s), values their indices; load factor "
                              "%.2f",
                              n, dist.c_str(), o.load_factor),
               16 * n + std::max(16 * n + 8 * slots, 8 * slots + 16 * n));
  const std::vector<std::uint32_t> keys = lesson04::make_keys(n, o.dist, seed);
  const std::vector<std::uint32_t> absent = lesson04::make_absent_keys(n, keys, seed + 1);
  const Cpu cpu = run_cpu(lesson, keys, absent);

  const course::DeviceReport& report = lesson.gpu();
  std::vector<std::uint32_t> iota(n);
  std::iota(iota.begin(), iota.end(), 0u);
  DeviceData d{course::DeviceBuffer<std::uint32_t>(keys),
               course::DeviceBuffer<std::uint32_t>(absent),
               course::DeviceBuffer<std::uint32_t>(iota), course::DeviceBuffer<std::uint32_t>(n)};
  lesson.poison([&] { d.found.fill_bytes(0xA5); });
  const std::vector<std::uint32_t> misses(n, lesson04::kNotFound);
  lesson04::ChainedTable seed_sized(lesson04::kSeedBuckets, n);
  lesson04::ChainedTable load_sized(slots, n);
  lesson04::OpenTable open(slots, hash);
  lesson04::SortedTable sorted(n);
  Rows rows{n, keys, cpu, d, {}, {}};
  add_chained(rows, o.show_race, {nullptr, o.blocks > 0 ? o.blocks : lesson04::kSeedBlocks},
              &seed_sized, &load_sized);
  add_open_and_sorted(rows, &open, &sorted);
  add_finds(rows, &open, &sorted, &misses);
  const course::ResultTable& table = lesson.run_versions(
      course::format("lesson04, %zu keys, %s, on %s%s; insert rows count 12 bytes a key (the "
                     "key read, an 8-byte entry written), find rows 16 (query, slot, answer)",
                     n, dist.c_str(), report.props.name,
                     o.book_hash ? ", v4 and v5 with the book's hash" : ""),
      12.0 * static_cast<double>(n), rows.versions);
  print_key_rates(table, n, cpu.book_ms, rows.map_ms);

  // The whole trip: the keys in (from pageable memory), v4's insert and find, the answers out.
  course::DeviceBuffer<std::uint32_t> copy(n);
  std::vector<std::uint32_t> answers(n);
  lesson.whole_trip(
      "v4 insert + find", static_cast<double>(n * sizeof(std::uint32_t)),
      [&] { copy.upload(keys); },
      [&] {
        open.clear();
        lesson04::insert_open(copy.data(), n, open, {});
        lesson04::find_open(copy.data(), n, open, d.found.data(), {});
        CUDA_CHECK(cudaMemcpy(answers.data(), d.found.data(), n * sizeof(std::uint32_t),
                              cudaMemcpyDeviceToHost));
      });
  bool ok = answers == cpu.hits;
  if (!ok) std::printf("whole trip: the answers are wrong\n");
  lesson.write_csv(o.book_hash ? dist + ", book's hash" : dist,
                   {{"size", course::size_text(n) + " keys"}});
  if (o.show_race && !show_race(keys, d)) ok = false;
  if (o.bucket_sweep) print_bucket_sweep(keys, d, lesson.reps(), o.blocks);
  if (o.load_sweep && !print_load_sweep(n, d, lesson.reps(), cpu.hits, hash)) ok = false;
  return lesson.finish(ok);
}

}  // namespace

int main(int argc, char** argv) {
  course::Lesson lesson("04",
                        "A GPU hash table: the book's CPU table, std::unordered_map, every GPU "
                        "version and a sorted array, on the same keys.",
                        "keys to insert", lesson04::kSeedKeys, lesson04::kMaxKeys);
  Options o;
  add_options(lesson.cli(), &o);
  std::vector<std::string> names = {"v0"};
  for (const std::string& name : course::names_of(lesson04::chained_versions(), {})) {
    names.push_back(name);
  }
  for (const std::string& name : course::names_of(lesson04::open_versions(), {"CUB", "Thr"})) {
    names.push_back(name);
  }
  return lesson.main(argc, argv, names, [&] { return run(lesson, o); });
}
