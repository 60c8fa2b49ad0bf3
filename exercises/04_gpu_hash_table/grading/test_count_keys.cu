// Grades exercise 1 of lesson 04: count_key (count_keys.cuh). The table is copied back after every
// key has been counted: each distinct key must be there once, in its bucket, with its number of
// occurrences (std::unordered_map's count), and nothing else; the pool must have given one entry
// per distinct key; and the bucket locks must have been taken once per key, which checks the
// technique. Heavy contention: four buckets, one key repeated, keys that all share a bucket. Fresh
// random keys each run (the seed is printed; COURSE_TEST_SEED repeats it).
#include <string>
#include <unordered_map>
#include <vector>

#include "count_keys_harness.hpp"
#include "launch.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace {

void check_counts(const std::vector<std::uint32_t>& keys, std::uint32_t buckets, int blocks,
                  const std::string& what) {
  const std::size_t n = keys.size();
  std::unordered_map<std::uint32_t, std::uint32_t> expected;
  for (std::uint32_t key : keys)
    ++expected[key];
  const course::DeviceBuffer<std::uint32_t> d_keys(keys);
  const grading04::CountedTable got = grading04::count_keys(d_keys.data(), n, buckets, blocks);

  INFO(what << ", n = " << n << ", " << buckets << " buckets, " << blocks << " blocks");
  REQUIRE(got.broken == 0);
  std::size_t found = 0;
  std::unordered_map<std::uint32_t, std::uint32_t> seen;
  for (std::uint32_t b = 0; b < buckets; ++b) {
    for (const auto& [key, count] : got.buckets[b]) {
      INFO("key " << key << " with count " << count << " in bucket " << b);
      CHECK(lesson04::bucket_of(key, buckets) == b);
      INFO(
          "a key that is in the table more than once: the search and the insert were not one "
          "step under the lock");
      CHECK(seen.count(key) == 0);
      seen[key] = count;
      ++found;
    }
  }
  INFO(found << " entries in the table, " << expected.size() << " distinct keys");
  CHECK(found == expected.size());
  std::size_t wrong_counts = 0;
  for (const auto& [key, count] : expected)
    wrong_counts += seen.count(key) == 0 || seen[key] != count;
  INFO(wrong_counts << " keys missing or with the wrong count");
  CHECK(wrong_counts == 0);
  INFO("entries taken from the pool: " << got.entries_used);
  CHECK(got.entries_used == expected.size());
  INFO("bucket locks taken: " << got.lock_acquisitions << "; keys counted: " << n
                              << " (each key counted under its bucket's lock)");
  CHECK(got.lock_acquisitions == n);
}

}  // namespace

TEST_CASE("every key counted once in its bucket, under heavy contention", "[gpu]") {
  // (A bucket's calls queue at its lock, each walking the bucket's list: the sizes keep the four
  // buckets' lists short enough to take well under a second.)
  const std::uint64_t seed = course::test::seed();
  const int blocks = 8 * course::sm_count();
  check_counts(lesson04::make_keys(20003, lesson04::Dist::dups, seed), 4, blocks, "dups");
  check_counts(lesson04::make_keys(100003, lesson04::Dist::equal, seed), 4, blocks, "one key");
  check_counts(lesson04::make_keys(4001, lesson04::Dist::random, seed), 4, blocks, "random");
  check_counts(lesson04::make_keys(200003, lesson04::Dist::dups, seed), 1024, blocks, "dups");
  check_counts(lesson04::make_keys(50021, lesson04::Dist::random, seed), 1024, blocks, "random");
}

TEST_CASE("small tables, awkward sizes, and keys that share one bucket", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (std::size_t n : {1, 2, 33, 257, 4097}) {
    for (lesson04::Dist dist :
         {lesson04::Dist::random, lesson04::Dist::dups, lesson04::Dist::sequential}) {
      check_counts(lesson04::make_keys(n, dist, seed), lesson04::kSeedBuckets, 60,
                   lesson04::dists().name(dist));
    }
  }
  check_counts(lesson04::make_keys(1000, lesson04::Dist::collide, seed), lesson04::kSeedBuckets, 60,
               "collide: every key in bucket 0");
  check_counts(lesson04::make_keys(1 << 20, lesson04::Dist::dups, seed), 1u << 18,
               8 * course::sm_count(), "dups, many buckets");
}
