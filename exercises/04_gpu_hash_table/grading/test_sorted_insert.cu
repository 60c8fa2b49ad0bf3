// Grades exercise 2 of lesson 04: insert_sorted (sorted_insert.cuh). After thousands of threads
// have inserted into the same few lists at once, the table is copied back: every entry must be
// reachable exactly once, in its bucket, with its own key and index (the book's verify_table, made
// exact), and every list must be sorted by key. Fresh random keys each run (the seed is printed;
// COURSE_TEST_SEED repeats it).
#include <string>
#include <vector>

#include "launch.hpp"
#include "reference.hpp"
#include "sorted_insert_harness.hpp"
#include "testing.hpp"

namespace {

void check_sorted(const std::vector<std::uint32_t>& keys, std::uint32_t buckets, int blocks,
                  const std::string& what) {
  const std::size_t n = keys.size();
  const course::DeviceBuffer<std::uint32_t> d_keys(keys);
  grading04::Chains chains = grading04::insert_all_sorted(d_keys.data(), n, buckets, blocks);
  lesson04::rebase(chains.heads, chains.pool, chains.device_pool);
  const lesson04::ChainCheck check =
      lesson04::check_chains(chains.heads, chains.pool.data(), n, keys.data(), n);
  INFO(what << ", n = " << n << ", " << buckets << " buckets, " << blocks
            << " blocks: " << check.text(n));
  REQUIRE(check.ok(n));
  std::size_t out_of_order = 0;
  for (const lesson04::Entry* head : chains.heads) {
    for (const lesson04::Entry* e = head; e != nullptr && e->next != nullptr; e = e->next)
      out_of_order += e->next->key < e->key;
  }
  INFO(out_of_order << " entries are followed by a smaller key: the lists are not in order");
  CHECK(out_of_order == 0);
}

}  // namespace

TEST_CASE("every entry in place and every list sorted, under heavy contention", "[gpu]") {
  // (Inserting into a sorted list walks it: four buckets of a few thousand keys each keep the walks
  // short enough for a fraction of a second.)
  const std::uint64_t seed = course::test::seed();
  const int blocks = 8 * course::sm_count();
  for (int run = 0; run < 3; ++run) {
    check_sorted(lesson04::make_keys(20011, lesson04::Dist::random, seed + run), 4, blocks,
                 "random");
    check_sorted(lesson04::make_keys(20011, lesson04::Dist::dups, seed + run), 4, blocks, "dups");
    check_sorted(lesson04::make_keys(1 << 18, lesson04::Dist::random, seed + run), 1024, blocks,
                 "random");
  }
}

TEST_CASE("small tables, awkward sizes, repeated keys", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (std::size_t n : {1, 2, 33, 257, 4097}) {
    for (lesson04::Dist dist : {lesson04::Dist::random, lesson04::Dist::sequential,
                                lesson04::Dist::dups, lesson04::Dist::equal}) {
      check_sorted(lesson04::make_keys(n, dist, seed), lesson04::kSeedBuckets, 60,
                   lesson04::dists().name(dist));
    }
  }
}
