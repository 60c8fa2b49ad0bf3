// Lesson 04: a hash table built on the GPU, from the book's locked chains to open addressing at
// billions of keys a second. Runs the book's CPU table and std::unordered_map, then every GPU
// version and a sorted array (CUB radix sort, Thrust binary search) on the same keys, and
// cuco::static_map when built with cuCollections; checks every table entry by entry and every
// lookup against std::unordered_map, and prints the table. Build alone, from this folder:
//   nvcc -O3 -std=c++17 -arch=native -lineinfo -I../../common -I.. main.cu -o lesson04
// (with cuco: add --extended-lambda -DLESSON04_HAVE_CUCO -isystem <cuCollections>/include)
#include <cstdio>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "experiments.cuh"
#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"
#include "rows.cuh"

namespace {

struct Options {
  lesson04::Dist dist = lesson04::Dist::random;
  double load_factor = 0.5;
  int blocks = 0;
  bool show_race = false;
  bool bucket_sweep = false;
  bool load_sweep = false;
  bool region_sweep = false;
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
  cli.flag("--region-sweep", &o->region_sweep,
           "v6 with table regions of 1/64 of the L2 to 8 times it, its partition and insert timed "
           "apart (exercise 5)");
  cli.flag("--book-hash", &o->book_hash,
           "v4 and v5 start a key at key % slots, the book's hash, instead of mixing its bits "
           "first (see how --dist dups or sequential fares)");
}

lesson04::Cpu run_cpu(course::Lesson& lesson, const std::vector<std::uint32_t>& keys,
                      const std::vector<std::uint32_t>& absent) {
  const std::size_t n = keys.size();
  const int reps = lesson.cpu_reps();
  lesson04::Cpu cpu;
  course::NvtxRange range("CPU");
  lesson04::SourceTable book(1, 1);
  cpu.book_ms =
      course::time_cpu([&] { book = lesson04::build_source_table(keys, lesson04::kSourceBuckets); },
                       reps, 0)
          .median_ms;
  const std::string book_check =
      lesson04::check_chains(book.heads(), book.pool().data(), book.pool().size(), keys.data(), n)
          .text(n);
  std::printf("the book's CPU table, %u buckets:     %10.3f ms  %8.1f Mkeys/s  (%s)\n",
              lesson04::kSourceBuckets, cpu.book_ms, lesson04::mkeys_per_s(n, cpu.book_ms),
              book_check.c_str());
  // The reference answers need the whole map, built once and untimed. std::unordered_map is timed
  // on its first keys only (a build of 25Mi keys takes seconds), and its times are scaled to n:
  // the rows compare rates. Freeing the previous run's map is not part of a build: prepare does it.
  cpu.map = lesson04::reference_map(keys);
  cpu.hits = lesson04::reference_find(cpu.map, keys);
  const std::size_t m = lesson04::map_timed_keys(n);
  const std::vector<std::uint32_t> first(keys.begin(), keys.begin() + m);
  const std::vector<std::uint32_t> first_absent(absent.begin(), absent.begin() + m);
  const double scale = static_cast<double>(n) / static_cast<double>(m);
  lesson04::Map timed;
  cpu.map_ms = scale * course::time_cpu([&] { timed = lesson04::Map(); },
                                        [&] { timed = lesson04::reference_map(first); }, reps, 0)
                           .median_ms;
  std::vector<std::uint32_t> answers(m);
  auto find_all = [&](const std::vector<std::uint32_t>& queries) {
    for (std::size_t i = 0; i < m; ++i) {
      const auto it = timed.find(queries[i]);
      answers[i] = it == timed.end() ? lesson04::kNotFound : it->second;
    }
  };
  cpu.hit_ms = scale * course::time_cpu([&] { find_all(first); }, reps, 0).median_ms;
  cpu.miss_ms = scale * course::time_cpu([&] { find_all(first_absent); }, reps, 0).median_ms;
  const std::string timed_on =
      course::format("rate of the first %s keys", course::size_text(m).c_str());
  std::printf(
      "std::unordered_map, insert_or_assign: %10.3f ms  %8.1f Mkeys/s  (%s; %zu distinct)\n",
      cpu.map_ms, lesson04::mkeys_per_s(n, cpu.map_ms), timed_on.c_str(), cpu.map.size());
  std::printf("std::unordered_map, find (present):   %10.3f ms  %8.1f Mkeys/s  (%s)\n", cpu.hit_ms,
              lesson04::mkeys_per_s(n, cpu.hit_ms), timed_on.c_str());
  std::printf("std::unordered_map, find (absent):    %10.3f ms  %8.1f Mkeys/s  (%s)\n\n",
              cpu.miss_ms, lesson04::mkeys_per_s(n, cpu.miss_ms), timed_on.c_str());
  lesson.set_cpu(cpu.book_ms, "the book's CPU table");
  return cpu;
}

// The whole trip: the keys in (from pageable memory), v4's insert and find, the answers out.
// Returns whether the answers are right.
bool whole_trip_v4(course::Lesson& lesson, const std::vector<std::uint32_t>& keys,
                   lesson04::OpenTable& open, lesson04::DeviceData& d,
                   const std::vector<std::uint32_t>& hits) {
  const std::size_t n = keys.size();
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
  if (answers != hits) std::printf("whole trip: the answers are wrong\n");
  return answers == hits;
}

int run(course::Lesson& lesson, const Options& o) {
  const std::size_t n = lesson.n();
  const std::uint64_t seed = lesson.options().seed;
  const std::size_t slots = lesson04::capacity_for(n, o.load_factor);
  const lesson04::Hash hash = o.book_hash ? lesson04::Hash::book : lesson04::Hash::mixed;
  const std::string dist = lesson04::dists().name(o.dist);
  // On the GPU: four arrays of n words, the partitions' four, the chained pool (16 bytes an entry)
  // and the largest table. On the host: the keys, the absent keys, the indices and the answers (4
  // bytes each), the book's pool and a copy of a chained table (16 each), and std::unordered_map
  // (40 a key: a node with the allocator's share, and a bucket pointer). cuco's table, when built,
  // adds 8 bytes a slot on the GPU.
  lesson.begin(
      course::format("a hash table of %zu keys (%s), values their indices; load factor "
                     "%.2f",
                     n, dist.c_str(), o.load_factor),
      32 * n + std::max(16 * n + 8 * slots, 8 * slots + 16 * n) + lesson04::cuco_bytes(slots),
      88 * n + 8 * slots);
  const std::vector<std::uint32_t> keys = lesson04::make_keys(n, o.dist, seed);
  const std::vector<std::uint32_t> absent = lesson04::make_absent_keys(n, keys, seed + 1);
  const lesson04::Cpu cpu = run_cpu(lesson, keys, absent);

  const course::DeviceReport& report = lesson.gpu();
  std::vector<std::uint32_t> iota(n);
  std::iota(iota.begin(), iota.end(), 0u);
  lesson04::DeviceData d{
      course::DeviceBuffer<std::uint32_t>(keys), course::DeviceBuffer<std::uint32_t>(absent),
      course::DeviceBuffer<std::uint32_t>(iota), course::DeviceBuffer<std::uint32_t>(n)};
  lesson.poison([&] { d.found.fill_bytes(0xA5); });
  const std::vector<std::uint32_t> misses(n, lesson04::kNotFound);
  lesson04::ChainedTable source_sized(lesson04::kSourceBuckets, n);
  lesson04::ChainedTable load_sized(slots, n);
  lesson04::OpenTable open(slots, hash);
  lesson04::SortedTable sorted(n);
  // v6's partitions, made before the timed runs (a build's and a find's need the same room).
  lesson04::PartitionScratch scratch;
  const lesson04::Launch launch{nullptr, 0, &scratch};
  scratch.reserve(n, lesson04::regions_for(open.capacity(), n, lesson04::region_bytes_for(launch)));
  // cuco's table, made once when its row runs, with a word that is no key and no query as its
  // empty slot's key.
  lesson04::Cuco cuco;
  std::unique_ptr<lesson04::CucoTable> cuco_table;
  if (cuco.limit.empty() && lesson.chosen("cuco")) {
    cuco_table = std::make_unique<lesson04::CucoTable>(slots, lesson04::free_key(cpu.map, absent));
    cuco.table = cuco_table.get();
    cuco.slots = slots;
  }
  lesson04::Rows rows{n, keys, cpu, d, {}, {}};
  lesson04::add_chained(rows, o.show_race,
                        {nullptr, o.blocks > 0 ? o.blocks : lesson04::kSourceBlocks}, &source_sized,
                        &load_sized);
  lesson04::add_open_and_sorted(rows, &open, &sorted, launch, cuco);
  lesson04::add_finds(rows, &open, &sorted, &misses, launch, cuco);
  const course::ResultTable& table = lesson.run_versions(
      course::format("lesson04, %zu keys, %s, on %s%s; insert rows count 12 bytes a key (the "
                     "key read, an 8-byte entry written), find rows 16 (query, slot, answer)",
                     n, dist.c_str(), report.props.name,
                     o.book_hash ? ", v4 and v5 with the book's hash" : ""),
      12.0 * static_cast<double>(n), rows.versions);
  lesson04::print_key_rates(table, n, cpu.book_ms, rows.map_ms);
  lesson04::print_stretches(open, n, scratch, lesson.chosen("v7"), lesson.chosen("v8"));

  bool ok = whole_trip_v4(lesson, keys, open, d, cpu.hits);
  lesson.write_csv(o.book_hash ? dist + ", book's hash" : dist,
                   {{"size", course::size_text(n) + " keys"}});
  if (o.show_race && !lesson04::show_race(keys, d)) ok = false;
  if (o.bucket_sweep) lesson04::print_bucket_sweep(keys, d, lesson.clock(), o.blocks);
  if (o.load_sweep && !lesson04::print_load_sweep(n, d, lesson.clock(), cpu.hits, hash)) ok = false;
  if (o.region_sweep && !lesson04::print_region_sweep(lesson, cpu, d, open, scratch)) ok = false;
  return lesson.finish(ok);
}

}  // namespace

int main(int argc, char** argv) {
  course::Lesson lesson("04",
                        "A GPU hash table: the book's CPU table, std::unordered_map, every GPU "
                        "version and a sorted array, on the same keys.",
                        "keys to insert", lesson04::kSourceKeys, lesson04::kMaxKeys);
  Options o;
  add_options(lesson.cli(), &o);
  std::vector<std::string> names = {"v0"};
  for (const std::string& name : course::names_of(lesson04::chained_versions(), {})) {
    names.push_back(name);
  }
  for (const std::string& name :
       course::names_of(lesson04::open_versions(), {"CUB", "Thr", "cuco"})) {
    names.push_back(name);
  }
  return lesson.main(argc, argv, names, [&] { return run(lesson, o); });
}
