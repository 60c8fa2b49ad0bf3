// Lesson 04's experiments, run after the table when asked. --show-race runs the book's locked
// chains where blocks share an SM and counts the entries lost; --bucket-sweep and --load-sweep
// (exercise 4) time the chained tables against their bucket count and open addressing against its
// load factor; --region-sweep (exercise 5) times v6 against the size of its table regions.
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"
#include "rows.cuh"

namespace lesson04 {

// --show-race: the book's table, its heads read from L2, and v1, 5 runs each at the book's grid
// and at one block per SM.
// Returns whether v1 kept every entry every time.
inline bool show_race(const std::vector<std::uint32_t>& keys, DeviceData& d) {
  constexpr int kRuns = 5;
  const std::size_t n = keys.size();
  const int sms = course::sm_count();
  ChainedTable table(kSourceBuckets, n);
  std::printf(
      "\nthe race: %d runs per grid, %zu keys in %u buckets; the most entries lost in a run, of "
      "%zu\n%8s %7s | %-24s | %-24s | %-24s\n",
      kRuns, n, kSourceBuckets, n, "blocks", "per SM", "v0, the book's locks",
      "v0, heads read from L2", "v1, correct locks");
  const ChainedInsert inserts[] = {insert_source_lock<false>, insert_source_lock<true>,
                                   insert_locked};
  bool v1_ok = true;
  for (int blocks : {kSourceBlocks, sms}) {
    std::printf("%8d %7.2f", blocks, static_cast<double>(blocks) / sms);
    for (int which = 0; which < 3; ++which) {
      std::size_t worst = 0;
      int wrong = 0;
      for (int r = 0; r < kRuns; ++r) {
        table.clear();
        inserts[which](d.keys.data(), n, table, {nullptr, blocks});
        const ChainCheck check = table.check(keys);
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

// Exercise 4: the chained versions against the bucket count. Each run after the L2 flush, as the
// table's rows, then the table's clear (one warm-up; a slow count stops at the table's budget).
inline void print_bucket_sweep(const std::vector<std::uint32_t>& keys, DeviceData& d,
                               const course::Clock& lesson_clock, int blocks) {
  const course::Clock clock = lesson_clock.warmups(1).budget_ms(course::Lesson::kBudgetMs);
  const std::size_t n = keys.size();
  std::printf(
      "\nbucket sweep: Mkeys/s of v1 (a lock per bucket) and v2 (a CAS on the head) by bucket "
      "count,\n%d blocks of %d threads\n%10s %12s %12s  %s\n",
      blocks > 0 ? blocks : kSourceBlocks, kThreads, "buckets", "v1", "v2", "check");
  for (int log2 = 10; log2 <= 24; log2 += 2) {
    ChainedTable table(std::size_t{1} << log2, n);
    std::printf("%10s", course::size_text(std::size_t{1} << log2).c_str());
    bool ok = true;
    for (ChainedInsert insert : {insert_locked, insert_lock_free}) {
      const course::Timing t = clock.time(
          [&] {
            insert(d.keys.data(), n, table, {nullptr, blocks});
          },
          {}, [&] { table.clear(); });
      ok = ok && table.check(keys).ok(n);
      std::printf(" %12.1f", mkeys_per_s(n, t.median_ms));
    }
    std::printf("  %s\n", ok ? "ok" : "FAIL");
  }
}

// Exercise 4: open addressing against the load factor, for v4 and v5 with three window sizes.
// Each run after the L2 flush, as the table's rows (then the clear before an insert); the inserts
// have one warm-up, the finds two; a slow one stops at the table's budget.
inline bool print_load_sweep(std::size_t n, DeviceData& d, const course::Clock& lesson_clock,
                             const std::vector<std::uint32_t>& expected_hits, Hash hash) {
  const course::Clock clock = lesson_clock.budget_ms(course::Lesson::kBudgetMs);
  struct Column {
    const char* name;
    OpenInsert insert;
    OpenFind find;
  };
  const Column columns[] = {
      {"v4", insert_open, find_open},
      {"v5 W=4", insert_cooperative<4>, find_cooperative<4>},
      {"v5 W=8", insert_cooperative<8>, find_cooperative<8>},
      {"v5 W=16", insert_cooperative<16>, find_cooperative<16>},
  };
  const std::vector<std::uint32_t> misses(n, kNotFound);
  std::printf(
      "\nload sweep: Gkeys/s of insert / find (present) / find (absent), by load factor (keys "
      "over slots)\n%6s",
      "load");
  for (const Column& c : columns)
    std::printf(" %20s", c.name);
  std::printf("  check\n");
  bool all_ok = true;
  for (int tenths = 3; tenths <= 9; ++tenths) {
    OpenTable table(capacity_for(n, tenths / 10.0), hash);
    std::printf("%6.1f", tenths / 10.0);
    bool ok = true;
    for (const Column& c : columns) {
      const course::Timing insert = clock.warmups(1).time(
          [&] { c.insert(d.keys.data(), n, table, {}); }, {}, [&] { table.clear(); });
      table.throw_if_full();
      const auto hit = time_find([&] { c.find(d.keys.data(), n, table, d.found.data(), {}); }, d,
                                 clock, expected_hits);
      const auto miss = time_find([&] { c.find(d.absent.data(), n, table, d.found.data(), {}); }, d,
                                  clock, misses);
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

// Exercise 5: v6 against the size of its regions, from 1/64 of the L2 to 8 times it, its
// partition and its insert timed apart, each run after the L2 flush like the table's rows.
// Returns whether every table and every answer was right.
inline bool print_region_sweep(course::Lesson& lesson, const Cpu& cpu, DeviceData& d,
                               OpenTable& table, PartitionScratch& scratch) {
  const std::size_t n = cpu.hits.size();
  const std::size_t l2 = course::l2_bytes();
  constexpr double kMiB = 1024.0 * 1024.0;
  std::printf(
      "\nregion sweep: v6 by region size, against the %.0f MiB L2 (the table is %.0f MiB); ms of "
      "the "
      "partition\n(count, scan, scatter), of the insert over the partitioned keys, of the whole "
      "build and of\nthe whole find of present keys\n%10s %8s %10s %10s %10s %10s  %s\n",
      static_cast<double>(l2) / kMiB, static_cast<double>(table.capacity() * sizeof(Slot)) / kMiB,
      "region MiB", "regions", "partition", "insert", "build", "find", "check");
  bool all_ok = true;
  for (std::size_t region = l2 / 64; region <= 8 * l2; region *= 2) {
    const Regions r = regions_for(table.capacity(), n, region);
    const Launch launch{nullptr, 0, &scratch, region};
    scratch.reserve(n, r);
    auto time = [&](std::function<void()> run, std::function<void()> prepare) {
      return lesson.time({"v6", "", "", std::move(run), [] { return std::string(); }, prepare})
          .time.median_ms;
    };
    const double partition = time(
        [&] { partition_by_region<false>(d.keys.data(), n, table.view(), r, scratch, nullptr); },
        {});
    const double insert =
        time([&] { insert_partitioned_keys(n, table, scratch, launch); }, [&] { table.clear(); });
    const double build =
        time([&] { insert_partitioned(d.keys.data(), n, table, launch); }, [&] { table.clear(); });
    table.throw_if_full();
    const bool table_ok = table.check(cpu.map, n).ok(cpu.map);
    const double find =
        time([&] { find_partitioned(d.keys.data(), n, table, d.found.data(), launch); }, {});
    const bool ok = table_ok && wrong_answers(d.found, cpu.hits).empty();
    std::printf("%10.3f %8u %10.4f %10.4f %10.4f %10.4f  %s\n",
                static_cast<double>(r.per_region) * kWindow * sizeof(Slot) / kMiB, r.count,
                partition, insert, build, find, ok ? "ok" : "FAIL");
    all_ok = all_ok && ok;
  }
  return all_ok;
}

}  // namespace lesson04
