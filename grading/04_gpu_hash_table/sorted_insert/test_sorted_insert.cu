// Grades exercise 2 of lesson 04: insert_sorted (sorted_insert.cuh). After thousands of threads
// have inserted into the same few lists at once, the table is copied back: every entry must be
// reachable exactly once, in its bucket, with its own key and index (the book's verify_table, made
// exact), and every list must be sorted by key. The list counts and sizes are drawn from the seed
// (printed; COURSE_TEST_SEED repeats it); keys come in random, increasing and decreasing order,
// repeated, and with the edge keys 0, 2^31 - 1, 2^31 and 2^32 - 1 among them.
#include <cstdio>
#include <string>
#include <vector>

#include "keys_testing.hpp"
#include "launch.hpp"
#include "reference.hpp"
#include "sorted_insert_harness.hpp"
#include "testing.hpp"

namespace {

// Checks a table the student's insert_sorted left after inserting `keys`.
void check_chains(grading04::Chains chains, const std::vector<std::uint32_t>& keys,
                  std::uint32_t buckets, const std::string& what) {
  const std::size_t n = keys.size();
  INFO(what);
  REQUIRE(chains.heads.size() == buckets);
  REQUIRE(chains.pool.size() == n);
  lesson04::rebase(chains.heads, chains.pool, chains.device_pool);
  const lesson04::ChainCheck check =
      lesson04::check_chains(chains.heads, chains.pool.data(), n, keys.data(), n);
  INFO(check.text(n));
  REQUIRE(check.ok(n));
  std::size_t out_of_order = 0;
  for (const lesson04::Entry* head : chains.heads) {
    for (const lesson04::Entry* e = head; e != nullptr && e->next != nullptr; e = e->next)
      out_of_order += e->next->key < e->key;
  }
  INFO(out_of_order << " entries are followed by a smaller key: the lists are not in order");
  CHECK(out_of_order == 0);
}

void check_sorted(const std::vector<std::uint32_t>& keys, std::uint32_t buckets, int blocks,
                  const std::string& what) {
  const course::DeviceBuffer<std::uint32_t> d_keys(keys);
  check_chains(grading04::insert_all_sorted(d_keys.data(), keys.size(), buckets, blocks), keys,
               buckets,
               what + ", n = " + std::to_string(keys.size()) + ", " + std::to_string(buckets) +
                   " buckets, " + std::to_string(blocks) + " blocks");
}

}  // namespace

TEST_CASE("every entry in place and every list sorted, under heavy contention", "[gpu]") {
  // (Inserting into a sorted list walks it: a few buckets of a few thousand keys each keep the
  // walks short enough for a fraction of a second.)
  const std::uint64_t seed = course::test::seed();
  const int blocks = 8 * course::sm_count();
  const auto few = static_cast<std::uint32_t>(
      course::test::drawn_in(course::test::seed(), 3000, 3, 5, "few buckets"));
  const auto many = static_cast<std::uint32_t>(
      course::test::drawn_in(course::test::seed(), 3001, 700, 700, "many buckets"));
  for (int run = 0; run < 3; ++run) {
    const std::size_t small =
        course::test::drawn_in(course::test::seed(), 3002 + run, 16001, 4096, "keys");
    check_sorted(grading04::keys_with_edges(small, lesson04::Dist::random, seed + run), few, blocks,
                 "random");
    check_sorted(grading04::keys_with_edges(small, lesson04::Dist::dups, seed + run), few, blocks,
                 "dups");
    check_sorted(
        grading04::keys_with_edges(course::test::drawn_in(course::test::seed(), 3005 + run,
                                                          (1u << 18) + 1, 1u << 16, "keys"),
                                   lesson04::Dist::random, seed + run),
        many, blocks, "random");
  }
}

TEST_CASE("small tables, awkward sizes, repeated keys", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  const auto buckets = static_cast<std::uint32_t>(
      course::test::drawn_in(course::test::seed(), 3010, 900, 400, "buckets"));
  const std::vector<std::size_t> sizes =
      course::test::drawn_sizes(seed, {1, 2, 31, 33, 255, 257, 4097}, {32, 256}, 8192, 3, "keys");
  for (std::size_t n : sizes) {
    for (lesson04::Dist dist : {lesson04::Dist::random, lesson04::Dist::sequential,
                                lesson04::Dist::dups, lesson04::Dist::equal}) {
      check_sorted(grading04::keys_with_edges(n, dist, seed + n), buckets, 60,
                   lesson04::dists().name(dist));
    }
  }
}

TEST_CASE("keys that come in increasing and in decreasing order", "[gpu]") {
  // Increasing: every insert walks to the end of its list; decreasing: every insert is at the
  // head, where the swaps of the threads of a list all meet.
  const std::size_t n = course::test::drawn_in(course::test::seed(), 3020, 8001, 4096, "keys");
  const auto buckets = static_cast<std::uint32_t>(
      course::test::drawn_in(course::test::seed(), 3021, 2, 6, "buckets"));
  std::vector<std::uint32_t> increasing(n);
  std::vector<std::uint32_t> decreasing(n);
  for (std::size_t i = 0; i < n; ++i) {
    increasing[i] = static_cast<std::uint32_t>(0x7FFFF000u + i);  // across 2^31
    decreasing[i] = static_cast<std::uint32_t>(0xFFFFFFFFu - i);
  }
  check_sorted(increasing, buckets, 8 * course::sm_count(), "increasing keys, across 2^31");
  check_sorted(decreasing, buckets, 8 * course::sm_count(), "decreasing keys, from 2^32 - 1");
}

TEST_CASE("timing: about 2^16 random keys into 64 lists", "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR 5 in the lesson's
  // CMakeLists.txt). Lists of about 1024 keys, a thread for each key: lock-free, the walks of a
  // list's inserts (hundreds of links, each a round trip to L2) run side by side, under a
  // millisecond on an H100; honest variants (a walk from the head again after a failed swap, other
  // memory orders) stay within 2 times, as failed swaps are rare. An answer that locks a list while
  // it walks it inserts into each list one key at a time: about 1024 walks of some 500 links in a
  // row, a quarter of a second or more, hundreds of times as long.
  const std::uint64_t seed = course::test::seed();
  const std::size_t n = (std::size_t{1} << 16) - course::test::drawn(seed, 3030) % 1024;
  const std::vector<std::uint32_t> keys = lesson04::make_keys(n, lesson04::Dist::random, seed);
  const course::DeviceBuffer<std::uint32_t> d_keys(keys);
  const int blocks = 8 * course::sm_count();
  // Every timed insert's table is checked, off the clock: before the next one, and after the last.
  int inserts = 0;
  const auto check_last = [&] {
    if (inserts++ > 0)
      check_chains(grading04::last_timed_table(), keys, 64,
                   "the table of timed inserts " + std::to_string(inserts - 1));
  };
  course::test::report_time(
      [&] { grading04::insert_all_sorted_only(d_keys.data(), n, 64, blocks); }, 9, check_last);
  check_last();
  check_sorted(keys, 64, blocks, "the timed keys");
}
