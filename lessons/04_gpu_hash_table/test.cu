// Lesson 04's tests. On the CPU: the book's table against std::unordered_multimap, the chain check
// and the slot check against tables broken on purpose, the reference map against brute force. On
// the GPU: every chained version against std::unordered_multimap and every open-addressing
// version and the sorted array against std::unordered_map, on random, sequential, repeated, equal
// and colliding keys at the contract's sizes (v6 also with regions small enough that the tests'
// tables have hundreds); the empty-key sentinel as a key; a table filled to its last slot, and one
// slot too small; repeated runs under contention.
#include <algorithm>
#include <random>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "kernels.cuh"
#include "reference.hpp"
#include "testing.hpp"

namespace {

using lesson04::Dist;

const std::vector<std::size_t> kSizes = {1, 2, 31, 32, 33, 255, 256, 257, 4097, 1000003};
const Dist kDists[] = {Dist::random, Dist::sequential, Dist::dups, Dist::equal, Dist::collide};

// Keys with the empty-key sentinel among them, three times, and 0, twice.
std::vector<std::uint32_t> keys_with_sentinel(std::size_t n) {
  std::vector<std::uint32_t> keys = lesson04::make_keys(n, Dist::random, course::test::seed());
  for (std::size_t i : {std::size_t{0}, n / 2, n - 1})
    keys[i] = lesson04::kEmptyKey;
  keys[n / 3] = 0;
  keys[n / 4 + 1] = 0;
  return keys;
}

}  // namespace

// ---- CPU
// ------------------------------------------------------------------------------------------

TEST_CASE("the book's CPU table keeps every entry, each in its bucket", "[cpu]") {
  for (Dist dist : kDists) {
    for (std::size_t n : {std::size_t{1}, std::size_t{257}, std::size_t{100003}}) {
      CAPTURE(lesson04::dists().name(dist), n);
      const std::vector<std::uint32_t> keys = lesson04::make_keys(n, dist, course::test::seed());
      const lesson04::SourceTable table =
          lesson04::build_source_table(keys, lesson04::kSourceBuckets);
      const lesson04::ChainCheck check = lesson04::check_chains(
          table.heads(), table.pool().data(), table.pool().size(), keys.data(), n);
      INFO(check.text(n));
      REQUIRE(check.ok(n));
      REQUIRE(lesson04::chain_pairs(table.heads(), n) == lesson04::multimap_pairs(keys));
    }
  }
}

TEST_CASE("the chain check finds lost, misplaced, repeated and looping entries", "[cpu]") {
  const std::size_t n = 5000;
  const std::vector<std::uint32_t> keys =
      lesson04::make_keys(n, Dist::random, course::test::seed());
  auto checked = [&](auto&& damage) {
    lesson04::SourceTable table = lesson04::build_source_table(keys, 16);
    std::vector<lesson04::Entry*> heads = table.heads();
    std::vector<lesson04::Entry> pool = table.pool();
    // Rebase onto the copies, as if `table` were the device's.
    lesson04::rebase(heads, pool, table.pool().data());
    damage(heads, pool);
    return lesson04::check_chains(heads, pool.data(), pool.size(), keys.data(), n);
  };
  REQUIRE(checked([](auto&, auto&) {}).ok(n));
  SECTION("a lost entry") {
    const auto check = checked([](auto& heads, auto&) { heads[3] = heads[3]->next; });
    CHECK(check.reachable == n - 1);
    CHECK_FALSE(check.ok(n));
  }
  SECTION("an entry in the wrong bucket") {
    const auto check = checked([](auto& heads, auto&) {
      lesson04::Entry* moved = heads[3];
      heads[3] = moved->next;
      moved->next = heads[4];
      heads[4] = moved;
    });
    CHECK(check.misplaced == 1);
    CHECK_FALSE(check.ok(n));
  }
  SECTION("an entry with another index's key") {
    const auto check = checked([](auto& heads, auto&) { heads[5]->value ^= 1; });
    CHECK(check.wrong >= 1);
    CHECK_FALSE(check.ok(n));
  }
  SECTION("a cycle") {
    const auto check = checked([](auto& heads, auto&) { heads[6]->next = heads[6]; });
    CHECK(check.broken == 1);
    CHECK_FALSE(check.ok(n));
  }
}

TEST_CASE("the reference map keeps each key's last index", "[cpu]") {
  const std::vector<std::uint32_t> keys =
      lesson04::make_keys(3001, Dist::dups, course::test::seed());
  const lesson04::Map map = lesson04::reference_map(keys);
  for (const auto& [key, value] : map) {
    std::uint32_t last = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] == key) last = static_cast<std::uint32_t>(i);
    }
    REQUIRE(value == last);
  }
  REQUIRE(map.size() == std::unordered_map<std::uint32_t, int>([&] {
                          std::unordered_map<std::uint32_t, int> m;
                          for (auto k : keys)
                            m[k] = 1;
                          return m;
                        }())
                            .size());
  const std::vector<std::uint32_t> absent = lesson04::make_absent_keys(5000, keys, 7);
  for (std::uint32_t a : absent)
    REQUIRE(map.count(a) == 0);
}

TEST_CASE("the slot check finds missing, wrong and repeated keys", "[cpu]") {
  const std::vector<std::uint32_t> keys = {5, 9, 5, lesson04::kEmptyKey, 12};
  const lesson04::Map map = lesson04::reference_map(keys);  // 5->2, 9->1, max->3, 12->4
  std::vector<lesson04::Slot> slots(8, lesson04::kEmptySlot);
  slots[1] = lesson04::pack(5, 2);
  slots[4] = lesson04::pack(9, 1);
  slots[6] = lesson04::pack(12, 4);
  const lesson04::Slot side = lesson04::pack(1, 3);
  REQUIRE(lesson04::check_slots(slots, side, map, keys.size()).ok(map));
  CHECK_FALSE(lesson04::check_slots(slots, 0, map, keys.size()).ok(map));  // sentinel lost
  auto damaged = slots;
  damaged[1] = lesson04::pack(5, 0);  // the first index, not the last
  CHECK_FALSE(lesson04::check_slots(damaged, side, map, keys.size()).ok(map));
  damaged = slots;
  damaged[7] = lesson04::pack(9, 1);  // stored twice
  CHECK_FALSE(lesson04::check_slots(damaged, side, map, keys.size()).ok(map));
}

// ---- GPU: chained tables
// --------------------------------------------------------------------------

namespace {

// Inserts `keys` with one chained version and compares the table with std::unordered_multimap.
void check_chained(lesson04::ChainedInsert insert, const std::vector<std::uint32_t>& keys,
                   std::size_t buckets, int blocks = 0) {
  const std::size_t n = keys.size();
  const course::DeviceBuffer<std::uint32_t> d_keys(keys);
  lesson04::ChainedTable table(buckets, n);
  insert(d_keys.data(), n, table, {nullptr, blocks});
  REQUIRE(table.mismatch(keys) == "");
}

}  // namespace

TEST_CASE("every chained version keeps every entry, at every size and on every input", "[gpu]") {
  for (const lesson04::ChainedVersion& v : lesson04::chained_versions()) {
    for (Dist dist : kDists) {
      for (std::size_t n : kSizes) {
        // One bucket for every key serialises v1: the largest size only where keys spread.
        if (n > 100000 && (dist == Dist::equal || dist == Dist::collide)) continue;
        CAPTURE(v.name, lesson04::dists().name(dist), n);
        const std::size_t buckets =
            v.sized_from_load_factor ? lesson04::capacity_for(n, 0.5) : lesson04::kSourceBuckets;
        check_chained(v.insert, lesson04::make_keys(n, dist, course::test::seed()), buckets);
      }
    }
  }
}

TEST_CASE("the chained versions keep the sentinel key, at any grid, run after run", "[gpu]") {
  const std::vector<std::uint32_t> keys = keys_with_sentinel(1 << 20);
  for (const lesson04::ChainedVersion& v : lesson04::chained_versions()) {
    for (int blocks : {0, 8 * course::sm_count()}) {
      for (int run = 0; run < 3; ++run) {
        CAPTURE(v.name, blocks, run);
        check_chained(v.insert, keys, lesson04::kSourceBuckets, blocks);
      }
    }
  }
}

TEST_CASE("a chained table refuses more keys than its pool holds", "[gpu]") {
  const course::DeviceBuffer<std::uint32_t> d_keys(std::vector<std::uint32_t>(100, 1));
  lesson04::ChainedTable table(16, 99);
  REQUIRE_THROWS_AS(lesson04::insert_lock_free(d_keys.data(), 100, table, {}), std::length_error);
}

// ---- GPU: open addressing and the sorted array
// ----------------------------------------------------

namespace {

// v6 and v7 with regions or stretches of 256 bytes (8 windows), so that the tests' tables have
// many, and a probe that runs off the end of v7's stretch is common; on scratch the tests keep, as
// the program does.
lesson04::Launch small_regions(lesson04::Launch launch) {
  static lesson04::PartitionScratch scratch;
  launch.scratch = &scratch;
  launch.region_bytes = 256;
  return launch;
}
// A version run with small_regions.
template <lesson04::OpenInsert Insert>
void insert_small(const std::uint32_t* keys, std::size_t n, lesson04::OpenTable& table,
                  lesson04::Launch launch) {
  Insert(keys, n, table, small_regions(launch));
}
template <lesson04::OpenFind Find>
void find_small(const std::uint32_t* queries, std::size_t n, lesson04::OpenTable& table,
                std::uint32_t* out, lesson04::Launch launch) {
  Find(queries, n, table, out, small_regions(launch));
}

struct OpenCase {
  const char* name;
  lesson04::OpenInsert insert;
  lesson04::OpenFind find;
};

const std::vector<OpenCase>& open_cases() {
  static const std::vector<OpenCase> all = [] {
    std::vector<OpenCase> cases;
    for (const lesson04::OpenVersion& v : lesson04::open_versions())
      cases.push_back({v.name, v.insert, v.find});
    cases.push_back({"v5 W=8", lesson04::insert_cooperative<8>, lesson04::find_cooperative<8>});
    cases.push_back({"v5 W=16", lesson04::insert_cooperative<16>, lesson04::find_cooperative<16>});
    cases.push_back({"v6, 256-byte regions", insert_small<lesson04::insert_partitioned>,
                     find_small<lesson04::find_partitioned>});
    cases.push_back({"v7, 256-byte stretches (probes often run off them)",
                     insert_small<lesson04::insert_stretches>,
                     find_small<lesson04::find_stretches>});
    cases.push_back({"v8, 256-byte stretches (counted in global memory past 16384 of them)",
                     insert_small<lesson04::insert_two_pass>, find_small<lesson04::find_two_pass>});
    return cases;
  }();
  return all;
}

// find into a poisoned, guarded buffer; returns the answers.
template <typename Find>
std::vector<std::uint32_t> answers(Find&& find, std::size_t n) {
  course::test::GuardedBuffer<std::uint32_t> out(n);
  out.poison(0xA5);
  find(out.data());
  REQUIRE(out.guards_intact());
  return out.download();
}

// What a table of some keys must hold and answer, computed once on the CPU.
struct Expected {
  std::vector<std::uint32_t> keys;
  lesson04::Map map;
  std::vector<std::uint32_t> hits;
  std::vector<std::uint32_t> absent;

  explicit Expected(std::vector<std::uint32_t> k)
      : keys(std::move(k)),
        map(lesson04::reference_map(keys)),
        hits(lesson04::reference_find(map, keys)),
        absent(lesson04::make_absent_keys(keys.size(), keys, course::test::seed())) {}
};

// Inserts the keys into a table of `slots` slots and checks the table and both kinds of find.
void check_open(const OpenCase& c, const Expected& e, std::size_t slots,
                lesson04::Hash hash = lesson04::Hash::mixed) {
  const std::size_t n = e.keys.size();
  const course::DeviceBuffer<std::uint32_t> d_keys(e.keys);
  const course::DeviceBuffer<std::uint32_t> d_absent(e.absent);
  lesson04::OpenTable table(slots, hash);
  c.insert(d_keys.data(), n, table, {});
  REQUIRE_NOTHROW(table.throw_if_full());
  const lesson04::SlotCheck check = table.check(e.map, n);
  INFO(check.text(e.map));
  REQUIRE(check.ok(e.map));
  const auto hits =
      answers([&](std::uint32_t* out) { c.find(d_keys.data(), n, table, out, {}); }, n);
  REQUIRE(course::test::mismatch(hits, e.hits) == "");
  const auto misses =
      answers([&](std::uint32_t* out) { c.find(d_absent.data(), n, table, out, {}); }, n);
  REQUIRE(course::test::mismatch(misses, std::vector<std::uint32_t>(n, lesson04::kNotFound)) == "");
}

}  // namespace

TEST_CASE("every open-addressing version equals std::unordered_map, and finds right", "[gpu]") {
  for (Dist dist : kDists) {
    for (std::size_t n : kSizes) {
      const Expected e(lesson04::make_keys(n, dist, course::test::seed()));
      for (const OpenCase& c : open_cases()) {
        CAPTURE(c.name, lesson04::dists().name(dist), n);
        check_open(c, e, lesson04::capacity_for(n, 0.5));
      }
    }
  }
}

TEST_CASE("open addressing with the book's hash, key % slots, is right too", "[gpu]") {
  for (Dist dist : {Dist::random, Dist::dups, Dist::collide}) {
    for (std::size_t n : {std::size_t{33}, std::size_t{4097}, std::size_t{100003}}) {
      const Expected e(lesson04::make_keys(n, dist, course::test::seed()));
      for (const OpenCase& c : open_cases()) {
        CAPTURE(c.name, lesson04::dists().name(dist), n);
        check_open(c, e, lesson04::capacity_for(n, 0.5), lesson04::Hash::book);
      }
    }
  }
}

TEST_CASE("open addressing stores the sentinel key beside the slots", "[gpu]") {
  const Expected e(keys_with_sentinel(100003));
  for (const OpenCase& c : open_cases()) {
    CAPTURE(c.name);
    check_open(c, e, lesson04::capacity_for(e.keys.size(), 0.7));
  }
}

TEST_CASE("keys that all start at one slot still go in, at a high load factor", "[gpu]") {
  // With the book's hash, multiples of the capacity all start at slot 0 (v4) or window 0 (v5):
  // the longest probe runs there can be.
  const std::size_t slots = 4096;
  std::vector<std::uint32_t> keys(3500);
  for (std::size_t i = 0; i < keys.size(); ++i)
    keys[i] = static_cast<std::uint32_t>((i + 1) * slots);
  const Expected e(keys);
  for (const OpenCase& c : open_cases()) {
    CAPTURE(c.name);
    check_open(c, e, slots, lesson04::Hash::book);
  }
}

TEST_CASE("a table filled to its last slot works, and one key more is a clear error", "[gpu]") {
  const std::size_t slots = 4096;  // a multiple of kMaxWindow: the capacity is exactly this
  // i * an odd number is a bijection on 32-bit words: distinct keys, scattered over the slots.
  auto scattered = [](std::size_t i) { return static_cast<std::uint32_t>(i * 2654435761u); };
  std::vector<std::uint32_t> keys(slots);
  for (std::size_t i = 0; i < slots; ++i)
    keys[i] = scattered(i);
  const std::uint32_t extra = scattered(slots);
  REQUIRE(std::count(keys.begin(), keys.end(), lesson04::kEmptyKey) == 0);
  REQUIRE(extra != lesson04::kEmptyKey);
  const Expected e(keys);
  for (const OpenCase& c : open_cases()) {
    CAPTURE(c.name);
    {
      INFO("every slot used: inserts succeed, and a find for an absent key must end");
      check_open(c, e, slots);
    }
    std::vector<std::uint32_t> one_more = keys;
    one_more.push_back(extra);
    const course::DeviceBuffer<std::uint32_t> d_keys(one_more);
    lesson04::OpenTable table(slots);
    REQUIRE(table.capacity() == slots);
    c.insert(d_keys.data(), one_more.size(), table, {});
    REQUIRE_THROWS_AS(table.throw_if_full(), std::length_error);
  }
}

TEST_CASE("open addressing at 2^25 keys, run after run", "[gpu]") {
  // Every case once, then the lesson's versions (v4 to v8) a second time: a race that loses or
  // doubles a key rarely does it the same way twice. (Each check of the table against
  // std::unordered_map takes seconds on the CPU at this size.)
  const Expected e(lesson04::make_keys(std::size_t{1} << 25, Dist::random, course::test::seed()));
  const std::size_t versions = lesson04::open_versions().size();
  for (int run = 0; run < 2; ++run) {
    for (std::size_t i = 0; i < (run == 0 ? open_cases().size() : versions); ++i) {
      const OpenCase& c = open_cases()[i];
      CAPTURE(c.name, run);
      check_open(c, e, lesson04::capacity_for(e.keys.size(), 0.5));
    }
  }
}

TEST_CASE("the sorted array (CUB sort, Thrust search) answers like std::unordered_map", "[gpu]") {
  for (Dist dist : kDists) {
    for (std::size_t n : kSizes) {
      CAPTURE(lesson04::dists().name(dist), n);
      std::vector<std::uint32_t> keys = dist == Dist::random && n > 3
                                            ? keys_with_sentinel(n)
                                            : lesson04::make_keys(n, dist, course::test::seed());
      const lesson04::Map map = lesson04::reference_map(keys);
      std::vector<std::uint32_t> indices(n);
      for (std::size_t i = 0; i < n; ++i)
        indices[i] = static_cast<std::uint32_t>(i);
      const std::vector<std::uint32_t> absent = lesson04::make_absent_keys(n, keys, 11);
      const course::DeviceBuffer<std::uint32_t> d_keys(keys);
      const course::DeviceBuffer<std::uint32_t> d_indices(indices);
      const course::DeviceBuffer<std::uint32_t> d_absent(absent);
      lesson04::SortedTable sorted(n);
      sorted.build(d_keys.data(), d_indices.data(), n);
      const auto hits = answers([&](std::uint32_t* out) { sorted.find(d_keys.data(), n, out); }, n);
      REQUIRE(course::test::mismatch(hits, lesson04::reference_find(map, keys)) == "");
      const auto misses =
          answers([&](std::uint32_t* out) { sorted.find(d_absent.data(), n, out); }, n);
      REQUIRE(course::test::mismatch(misses, std::vector<std::uint32_t>(n, lesson04::kNotFound)) ==
              "");
    }
  }
}

// ---- v6's partition
// -------------------------------------------------------------------------------

TEST_CASE("v6 cuts any table into at most kMaxRegions regions that cover every window", "[cpu]") {
  for (std::size_t slots : {std::size_t{16}, std::size_t{4096}, std::size_t{200016},
                            std::size_t{52428800}, std::size_t{4294967200}}) {
    for (std::size_t region :
         {std::size_t{1}, std::size_t{256}, std::size_t{12} << 20, std::size_t{1} << 40}) {
      for (std::size_t n : {std::size_t{1}, std::size_t{4097}, std::size_t{4294967295}}) {
        CAPTURE(slots, region, n);
        const lesson04::Regions r = lesson04::regions_for(slots, n, region);
        REQUIRE(r.windows == slots / lesson04::kWindow);
        REQUIRE(r.count >= 1);
        REQUIRE(r.count <= lesson04::kMaxRegions);
        REQUIRE(std::size_t{r.count} * r.per_region >= r.windows);
        REQUIRE(std::size_t{r.count - 1} * r.per_region < r.windows);  // no empty region
        REQUIRE(std::size_t{r.tiles} * lesson04::kPartitionTile >= n);
        REQUIRE(std::size_t{r.tiles - 1} * lesson04::kPartitionTile < n);
        REQUIRE(std::size_t{r.count} * r.tiles < (std::size_t{1} << 31));
      }
    }
  }
}

TEST_CASE("v6's partition moves every key into its region's stretch, and records the move",
          "[gpu]") {
  for (Dist dist : {Dist::random, Dist::dups, Dist::equal}) {
    for (std::size_t n :
         {std::size_t{1}, std::size_t{4095}, std::size_t{4097}, std::size_t{300007}}) {
      CAPTURE(lesson04::dists().name(dist), n);
      const std::vector<std::uint32_t> keys = lesson04::make_keys(n, dist, course::test::seed());
      const course::DeviceBuffer<std::uint32_t> d_keys(keys);
      lesson04::OpenTable table(lesson04::capacity_for(n, 0.5));
      const lesson04::Regions r = lesson04::regions_for(table.capacity(), n, 256);
      lesson04::PartitionScratch s;
      s.reserve(n, r);
      auto region = [&](std::uint32_t key) {
        return lesson04::home_slot(lesson04::Hash::mixed, key, r.windows) / r.per_region;
      };
      auto download = [n](std::uint32_t* p) {
        std::vector<std::uint32_t> host(n);
        CUDA_CHECK(cudaMemcpy(host.data(), p, n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
        return host;
      };
      for (const bool find : {false, true}) {
        CAPTURE(find);
        CUDA_CHECK(cudaMemset(s.keys(), 0xA5, n * sizeof(std::uint32_t)));
        CUDA_CHECK(cudaMemset(s.second(), 0xA5, n * sizeof(std::uint32_t)));
        if (find) {
          lesson04::partition_by_region<true>(d_keys.data(), n, table.view(), r, s, nullptr);
        } else {
          lesson04::partition_by_region<false>(d_keys.data(), n, table.view(), r, s, nullptr);
        }
        CUDA_CHECK(cudaDeviceSynchronize());
        const std::vector<std::uint32_t> moved = download(s.keys());
        const std::vector<std::uint32_t> second = download(s.second());
        std::vector<char> seen(n, 0);
        std::size_t wrong = 0;
        for (std::size_t j = 0; j < n; ++j) {
          // building: second[j] is where key j came from; finding: second[i] is where key i went
          const std::uint32_t from = find ? static_cast<std::uint32_t>(j) : second[j];
          const std::uint32_t to = find ? second[j] : static_cast<std::uint32_t>(j);
          if (from >= n || to >= n || seen[from] || moved[to] != keys[from]) {
            ++wrong;
            continue;
          }
          seen[from] = 1;
          if (j > 0 && region(moved[j]) < region(moved[j - 1])) ++wrong;
        }
        REQUIRE(wrong == 0);
      }
    }
  }
}

// ---- v8's two passes
// ------------------------------------------------------------------------------

TEST_CASE("FastDivide divides as / and % do", "[cpu]") {
  std::mt19937 rng(static_cast<std::uint32_t>(course::test::seed()));
  for (std::uint32_t d : {1u, 2u, 3u, 7u, 10u, 3616u, 3625u, 13107200u, 0x7FFFFFFFu, 0x80000000u,
                          0x80000001u, 0xFFFFFFFEu, 0xFFFFFFFFu}) {
    const lesson04::FastDivide by(d);
    std::vector<std::uint32_t> xs = {0u, 1u, d - 1, d, d + 1, 2 * d - 1, 0xFFFFFFFEu, 0xFFFFFFFFu};
    for (int i = 0; i < 100000; ++i)
      xs.push_back(static_cast<std::uint32_t>(rng()));
    std::size_t wrong = 0;
    for (std::uint32_t x : xs)
      if (by.quotient(x) != x / d || by.remainder(x) != x % d) ++wrong;
    CAPTURE(d);
    REQUIRE(wrong == 0);
  }
}

TEST_CASE("v8 cuts any table into stretches both of its passes can bucket", "[cpu]") {
  for (std::size_t slots : {std::size_t{16}, std::size_t{4096}, std::size_t{200016},
                            std::size_t{52428800}, std::size_t{4294967200}}) {
    for (std::size_t windows :
         {std::size_t{1}, std::size_t{8}, std::size_t{3616}, std::size_t{1} << 40}) {
      CAPTURE(slots, windows);
      const lesson04::TwoPass p = lesson04::two_pass_for(slots, 4097, windows);
      REQUIRE(p.table_windows == slots / lesson04::kWindow);
      REQUIRE(p.windows >= 1);
      REQUIRE(std::size_t{p.count} * p.windows >= p.table_windows);
      REQUIRE(std::size_t{p.count - 1} * p.windows < p.table_windows);  // no empty stretch
      REQUIRE(p.fine == 1u << p.fine_shift);
      REQUIRE(p.fine <= lesson04::kMaxRegions);
      REQUIRE(p.regions >= 1);
      REQUIRE(p.regions <= lesson04::kMaxRegions);
      REQUIRE(std::size_t{p.regions} * p.fine >= p.count);
      REQUIRE(std::size_t{p.regions - 1} * p.fine < p.count);
      REQUIRE(p.tiles == 2);
    }
  }
}

TEST_CASE("v8's two passes take every key to its stretch, with where it came from", "[gpu]") {
  for (Dist dist : {Dist::random, Dist::dups, Dist::equal}) {
    for (std::size_t n : {std::size_t{1}, std::size_t{4095}, std::size_t{4097}, std::size_t{300007},
                          std::size_t{1000003}}) {
      // 8-window stretches: tens of thousands of them at the largest n, counted in global memory;
      // about 14,000 stretches: counted in shared memory, past the 48 KiB a block has unasked.
      for (int pick = 0; pick < 3; ++pick) {
        lesson04::OpenTable table(lesson04::capacity_for(n, 0.5));
        const std::size_t table_windows = table.capacity() / lesson04::kWindow;
        const std::size_t windows = pick == 0   ? std::size_t{8}
                                    : pick == 1 ? std::size_t{3616}
                                                : (table_windows + 13999) / 14000;
        CAPTURE(lesson04::dists().name(dist), n, windows);
        const std::vector<std::uint32_t> keys = lesson04::make_keys(n, dist, course::test::seed());
        const course::DeviceBuffer<std::uint32_t> d_keys(keys);
        const lesson04::TwoPass p = lesson04::two_pass_for(table.capacity(), n, windows);
        if (pick == 2 && n >= 300007) {
          REQUIRE(std::size_t{p.count} * sizeof(std::uint32_t) > course::kDefaultSharedBytes);
          REQUIRE(p.count <= lesson04::kSharedStretchCounts);
        }
        lesson04::PartitionScratch s;
        s.reserve(n, lesson04::Regions{});
        CUDA_CHECK(cudaMemset(s.answers(), 0xA5, n * sizeof(std::uint32_t)));
        CUDA_CHECK(cudaMemset(s.fourth(), 0xA5, n * sizeof(std::uint32_t)));
        lesson04::partition_to_stretches(d_keys.data(), n, table.view(), p, s, nullptr);
        CUDA_CHECK(cudaDeviceSynchronize());
        auto download = [](std::uint32_t* from, std::size_t count) {
          std::vector<std::uint32_t> host(count);
          CUDA_CHECK(
              cudaMemcpy(host.data(), from, count * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
          return host;
        };
        const std::vector<std::uint32_t> moved = download(s.answers(), n);
        const std::vector<std::uint32_t> from = download(s.fourth(), n);
        const std::vector<std::uint32_t> starts =
            download(s.plan(p.words()) + p.starts(), p.count + 1);
        REQUIRE(starts.front() == 0);
        REQUIRE(starts.back() == n);
        auto stretch = [&](std::uint32_t key) {
          return lesson04::home_slot(lesson04::Hash::mixed, key, p.table_windows) / p.windows;
        };
        std::vector<char> seen(n, 0);
        std::size_t wrong = 0;
        std::uint32_t s_at = 0;  // the stretch whose keys place j lies among
        for (std::size_t j = 0; j < n; ++j) {
          while (s_at + 1 < p.count && starts[s_at + 1] <= j)
            ++s_at;
          if (from[j] >= n || seen[from[j]] || moved[j] != keys[from[j]] ||
              stretch(moved[j]) != s_at) {
            ++wrong;
            continue;
          }
          seen[from[j]] = 1;
        }
        REQUIRE(wrong == 0);
      }
    }
  }
}
