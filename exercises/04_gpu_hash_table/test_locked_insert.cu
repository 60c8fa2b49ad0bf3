// Grades exercise 1 of lesson 04: exercise04::locked_insert in locked_insert.cuh. Every key must be
// in the table exactly once, in its bucket, with its index: the table is copied back and compared
// with std::unordered_multimap, on fresh random keys each run (the seed is printed;
// COURSE_TEST_SEED repeats it), at the book's grid and at 8 blocks per SM, three times each.
#include <locked_insert.cuh>  // <>: the starter or the solution, whichever the build chose

#include <vector>

#include "launch.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace {

void check_insert(const std::vector<std::uint32_t>& keys, std::size_t buckets, int blocks) {
  const std::size_t n = keys.size();
  const course::DeviceBuffer<std::uint32_t> d_keys(keys);
  lesson04::ChainedTable table(buckets, n);
  exercise04::locked_insert(d_keys.data(), n, table, blocks);
  REQUIRE(table.mismatch(keys) == "");
}

}  // namespace

TEST_CASE("every random key is in the table, at the book's grid and at 8 blocks per SM", "[gpu]") {
  const std::vector<std::uint32_t> keys =
      lesson04::make_keys(1 << 20, lesson04::Dist::random, course::test::seed());
  for (int blocks : {60, 8 * course::sm_count()}) {
    for (int run = 0; run < 3; ++run) {
      CAPTURE(blocks, run);
      check_insert(keys, lesson04::kSeedBuckets, blocks);
    }
  }
}

TEST_CASE("small tables, repeated keys, and every key in one bucket", "[gpu]") {
  for (std::size_t n : {1, 2, 33, 257, 4097}) {
    for (lesson04::Dist dist : {lesson04::Dist::random, lesson04::Dist::dups, lesson04::Dist::equal,
                                lesson04::Dist::collide}) {
      CAPTURE(n, static_cast<int>(dist));
      check_insert(lesson04::make_keys(n, dist, course::test::seed()), lesson04::kSeedBuckets, 60);
    }
  }
}
