// Grades exercise 2 of lesson 04: exercise04::push_front in lock_free_insert.cuh. Many threads push
// onto the same heads at once (4 buckets, then the book's 1024, then one per two keys); every
// entry must be reachable exactly once, in its bucket, with its own key and index, three runs
// each, on fresh random keys (the seed is printed; COURSE_TEST_SEED repeats it).
#include <lock_free_insert.cuh>  // <>: the starter or the solution, whichever the build chose

#include <vector>

#include "launch.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace {

void check_insert(const std::vector<std::uint32_t>& keys, std::size_t buckets, int blocks) {
  const std::size_t n = keys.size();
  const course::DeviceBuffer<std::uint32_t> d_keys(keys);
  lesson04::ChainedTable table(buckets, n);
  exercise04::lock_free_insert(d_keys.data(), n, table, blocks);
  const lesson04::ChainCheck check = table.check(keys);
  INFO(check.text(n));
  REQUIRE(check.ok(n));
}

}  // namespace

TEST_CASE("every entry survives heavy contention on a few heads", "[gpu]") {
  const std::vector<std::uint32_t> keys =
      lesson04::make_keys(1 << 20, lesson04::Dist::random, course::test::seed());
  for (std::size_t buckets : {std::size_t{4}, std::size_t{1024}, std::size_t{1} << 21}) {
    for (int run = 0; run < 3; ++run) {
      CAPTURE(buckets, run);
      check_insert(keys, buckets, 8 * course::sm_count());
    }
  }
}

TEST_CASE("small tables and repeated keys", "[gpu]") {
  for (std::size_t n : {1, 2, 33, 257, 4097, 100003}) {
    for (lesson04::Dist dist :
         {lesson04::Dist::sequential, lesson04::Dist::dups, lesson04::Dist::equal}) {
      CAPTURE(n, static_cast<int>(dist));
      check_insert(lesson04::make_keys(n, dist, course::test::seed()), lesson04::kSeedBuckets, 60);
    }
  }
}
