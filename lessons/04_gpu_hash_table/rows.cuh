// Lesson 04's table rows: what the GPU versions read and write, how each row is checked, and the
// rows themselves (each table's build, then its finds of present and of absent keys), with the
// same operation on std::unordered_map beside each (beside a chained table's build, the book's CPU
// table). main.cu lists them; experiments.cuh reuses the device data and the timed find.
#pragma once

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"

namespace lesson04 {

inline double mkeys_per_s(std::size_t n, double ms) {
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

// "" when every answer in `found` is the expected one.
inline std::string wrong_answers(const course::DeviceBuffer<std::uint32_t>& found,
                                 const std::vector<std::uint32_t>& expected) {
  const std::vector<std::uint32_t> got = found.download();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    wrong += got[i] != expected[i];
  return wrong == 0 ? std::string() : course::format("%zu of %zu lookups wrong", wrong, got.size());
}

// Runs find into d.found (poisoned first, untimed) on `clock` and compares with `expected`.
template <typename Find>
std::pair<course::Timing, std::string> time_find(Find&& find, DeviceData& d,
                                                 const course::Clock& clock,
                                                 const std::vector<std::uint32_t>& expected) {
  const course::Timing t = clock.time(find, [&] { d.found.fill_bytes(0xA5); });
  return {t, wrong_answers(d.found, expected)};
}

// The CPU: the book's table, and std::unordered_map (the reference) for build and lookup, as a
// user would write the loops, on one thread.
struct Cpu {
  Map map;
  std::vector<std::uint32_t> hits;  // the answer to each key's lookup
  double book_ms = 0;
  double map_ms = 0;
  double hit_ms = 0;
  double miss_ms = 0;
};

// Each row's speed in keys a second, against the book's CPU table and against the same operation
// on std::unordered_map (`map_ms`, one per row; for the chained tables, v0 to v3, add_chained
// puts the book's CPU table there too).
inline void print_key_rates(const course::ResultTable& table, std::size_t n, double book_ms,
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
      "thread, at its rate on the first %s keys)\n\n",
      course::size_text(map_timed_keys(n)).c_str());
}

// How v7 and v8 cut the table, and how many keys each one's last build spilled off their
// stretches (`v7`, `v8`: whether it ran).
inline void print_stretches(const OpenTable& table, std::size_t n, PartitionScratch& scratch,
                            bool v7, bool v8) {
  std::uint32_t spilled[2] = {0, 0};
  CUDA_CHECK(cudaMemcpy(spilled, scratch.spill_count(), sizeof(spilled), cudaMemcpyDeviceToHost));
  if (v7) {
    const Stretches st = stretches_for(table, n, {});
    std::printf(
        "v7 cuts the table into %u regions of %u stretches of %.1f KiB (one block's shared memory "
        "each); its last build spilled %u keys off their stretches\n",
        st.r.count, st.per_region, static_cast<double>(stretch_shared_bytes(st)) / 1024.0,
        spilled[0]);
  }
  if (v8) {
    const TwoPass p = two_pass_for(table, n, {});
    std::printf(
        "v8 takes the keys to %u stretches in two passes: %u regions, then up to %u stretches a "
        "region; its last build spilled %u keys off their stretches\n",
        p.count, p.regions, p.fine, spilled[1]);
  }
  if (v7 || v8) std::printf("\n");
}

// Everything the versions read and write on the GPU, and the rows they make: each version, and
// per row the same operation's time on std::unordered_map (the book's CPU table's, for a chained
// table's row).
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
inline void add_chained(Rows& rows, bool show_race, const Launch& launch,
                        ChainedTable* source_sized, ChainedTable* load_sized) {
  auto add = [&](const char* name, const char* idea, ChainedInsert insert, ChainedTable* t,
                 bool may_fail, course::Kind kind) {
    Rows* r = &rows;
    course::Version v{name,
                      idea,
                      "",
                      [r, insert, t, launch] { insert(r->d.keys.data(), r->n, *t, launch); },
                      [r, t] {
                        const ChainCheck check = t->check(r->keys);
                        return check.ok(r->n) ? std::string() : check.text(r->n);
                      },
                      [t] { t->clear(); }};
    v.may_fail = may_fail;
    v.kind = kind;
    rows.add(std::move(v), rows.cpu.book_ms);
  };
  if (show_race) {
    add("v0", "the book's: a lock per bucket, taken lane by lane", insert_source_lock<false>,
        source_sized, true, course::Kind::source);
  }
  for (const ChainedVersion& v : chained_versions()) {
    add(v.name, v.idea, v.insert, v.sized_from_load_factor ? load_sized : source_sized, false,
        course::Kind::course);
  }
}

// cuco::static_map's table, made once by the program when its row runs (else null), and the
// reason it does not run ("" when it does).
struct Cuco {
  CucoTable* table = nullptr;
  std::size_t slots = 0;  // the slots it was asked for (the course's tables')
  std::string limit = why_no_cuco();
};

// cuco's answers in d.found against the map's: any occurrence of a repeated key is right (its
// insert keeps the first to land, where the map keeps the last).
inline std::string cuco_wrong(const Rows& rows, const std::vector<std::uint32_t>& expected) {
  return wrong_occurrences(rows.d.found.download(), expected, rows.keys);
}

// cuco's insert, its table cleared first (untimed), checked by its size and by a find of every key.
inline void add_cuco_insert(Rows& rows, Cuco cuco) {
  Rows* r = &rows;
  CucoTable* t = cuco.table;
  rows.add(course::as(course::Kind::library,
                      {"cuco",
                       "cuco::static_map insert: linear probing, 4 threads; a repeat keeps "
                       "its first insert to land",
                       cuco.limit, [r, t] { t->insert(r->d.keys.data(), r->n); },
                       [r, t] {
                         const std::size_t size = t->size();
                         if (size != r->cpu.map.size())
                           return course::format("%zu keys held, not %zu", size, r->cpu.map.size());
                         t->find(r->d.keys.data(), r->n, r->d.found.data());
                         return cuco_wrong(*r, r->cpu.hits);
                       },
                       [t] { t->clear(); }}),
           rows.cpu.map_ms);
  if (t != nullptr) {
    rows.versions.back().note = course::format(
        "cuco's table has %zu slots: the course's %zu, rounded up to 4 times a prime (4, the "
        "threads that probe together)",
        t->capacity(), cuco.slots);
  }
}

// cuco's find of the keys present or absent, on its table built again (untimed) first.
inline void add_cuco_find(Rows& rows, Cuco cuco, bool present,
                          const std::vector<std::uint32_t>* expected, double bytes) {
  Rows* r = &rows;
  CucoTable* t = cuco.table;
  const std::uint32_t* queries = present ? rows.d.keys.data() : rows.d.absent.data();
  rows.add(course::operation_of(
               "cuco", course::as(course::Kind::library,
                                  {present ? "cuco find" : "cuco miss",
                                   present ? "cuco::static_map find, keys present"
                                           : "cuco::static_map find, keys absent",
                                   cuco.limit,
                                   [r, t, queries] { t->find(queries, r->n, r->d.found.data()); },
                                   [r, expected] { return cuco_wrong(*r, *expected); },
                                   {},
                                   [r, t] {
                                     t->clear();
                                     t->insert(r->d.keys.data(), r->n);
                                   },
                                   bytes})),
           present ? rows.cpu.hit_ms : rows.cpu.miss_ms);
}

// Open addressing, checked slot by slot against the map; the sorted array, through its lookups.
// `launch` carries v6's partitions, made once by the program.
// Last, cuco's insert.
inline void add_open_and_sorted(Rows& rows, OpenTable* open, SortedTable* sorted, Launch launch,
                                Cuco cuco) {
  Rows* r = &rows;
  for (const OpenVersion& v : open_versions()) {
    rows.add({v.name, v.idea, "",
              [r, v, open, launch] { v.insert(r->d.keys.data(), r->n, *open, launch); },
              [r, open] {
                try {
                  open->throw_if_full();
                } catch (const std::length_error& e) {
                  return std::string(e.what());
                }
                const SlotCheck check = open->check(r->cpu.map, r->n);
                return check.ok(r->cpu.map) ? std::string() : check.text(r->cpu.map);
              },
              [open] { open->clear(); }},
             rows.cpu.map_ms);
  }
  rows.add(course::as(course::Kind::library,
                      {"CUB", "sorted array: cub::DeviceRadixSort::SortPairs", "",
                       [r, sorted] { sorted->build(r->d.keys.data(), r->d.indices.data(), r->n); },
                       [r, sorted] {
                         sorted->find(r->d.keys.data(), r->n, r->d.found.data());
                         return wrong_answers(r->d.found, r->cpu.hits);
                       }}),
           rows.cpu.map_ms);
  add_cuco_insert(rows, cuco);
}

// Find, for present keys and for absent ones, on each table built again (untimed) first: a second
// operation of the version that built the table ("v4 find" of v4), of the sorted array ("Thr
// find" of the library row --only calls "Thr"), and cuco's ("cuco find" of "cuco").
inline void add_finds(Rows& rows, OpenTable* open, SortedTable* sorted,
                      const std::vector<std::uint32_t>* misses, Launch launch, Cuco cuco) {
  Rows* r = &rows;
  const double bytes = 16.0 * static_cast<double>(rows.n);  // query, slot, answer
  for (const bool present : {true, false}) {
    const std::uint32_t* queries = present ? rows.d.keys.data() : rows.d.absent.data();
    const std::vector<std::uint32_t>* expected = present ? &rows.cpu.hits : misses;
    const std::string row = present ? " find" : " miss";
    const std::string which = present ? ", keys present" : ", keys absent";
    const double cpu_ms = present ? rows.cpu.hit_ms : rows.cpu.miss_ms;
    const auto check = [r, expected] { return wrong_answers(r->d.found, *expected); };
    for (const OpenVersion& v : open_versions()) {
      rows.add(course::operation_of(v.name, {v.name + row,
                                             v.idea + which,
                                             "",
                                             [r, v, open, queries, launch] {
                                               v.find(queries, r->n, *open, r->d.found.data(),
                                                      launch);
                                             },
                                             check,
                                             {},
                                             [r, v, open, launch] {
                                               open->clear();
                                               v.insert(r->d.keys.data(), r->n, *open, launch);
                                             },
                                             bytes}),
               cpu_ms);
    }
    rows.add(
        course::operation_of(
            "Thr",
            course::as(course::Kind::library,
                       {"Thr" + row,
                        "sorted array: thrust::upper_bound" + which,
                        "",
                        [r, sorted, queries] { sorted->find(queries, r->n, r->d.found.data()); },
                        check,
                        {},
                        [r, sorted] { sorted->build(r->d.keys.data(), r->d.indices.data(), r->n); },
                        bytes})),
        cpu_ms);
    add_cuco_find(rows, cuco, present, expected, bytes);
  }
}

}  // namespace lesson04
