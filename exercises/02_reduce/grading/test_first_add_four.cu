// Grades exercise 1 of lesson 02: first_add_kernel (first_add_four.cuh), for ints and floats, at
// every size; and a trace of the additions checks the technique: every block's sum holds each of
// its elements once, through four adds during the load and a tree, not a loop. Fresh random inputs
// each run (the seed is printed; COURSE_TEST_SEED repeats it).
#include <vector>

#include "first_add_four_harness.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace {

template <typename T>
T student_sum(const std::vector<T>& x) {
  const course::DeviceBuffer<T> d_x(x);
  course::test::GuardedBuffer<T> result(1);
  result.poison(0xFF);
  grading02::first_add_sum(d_x.data(), x.size(), result.data());
  const T got = result.download()[0];
  REQUIRE(result.guards_intact());
  return got;
}

}  // namespace

TEST_CASE("four adds during the load sum ints exactly, at every size", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{255}, std::size_t{256},
                        std::size_t{257}, std::size_t{513}, std::size_t{1000}, std::size_t{1023},
                        std::size_t{1024}, std::size_t{1025}, std::size_t{4097},
                        std::size_t{1000003}, std::size_t{1 + seed % 500000}}) {
    const auto x = lesson02::make_input<int>(n, lesson02::Dist::uniform, seed + n);
    INFO("the sum of n = " << n << " ints");
    CHECK(student_sum(x) == lesson02::reference_sum(x.data(), n));
  }
}

TEST_CASE("four adds during the load sum whole-number floats exactly", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (std::size_t n : {std::size_t{1}, std::size_t{1023}, std::size_t{(1 << 24) + 7}}) {
    const auto x = lesson02::make_input<float>(n, lesson02::Dist::integers, seed + n);
    INFO("the sum of n = " << n << " floats");
    CHECK(static_cast<double>(student_sum(x)) == lesson02::reference_sum(x.data(), n));
  }
}

TEST_CASE("each block adds its elements once, four during the load, then a tree", "[gpu]") {
  // 4 adds during the load, then log2(256) = 8 steps of the tree: 12 on the longest path. A loop
  // over the block's elements, or over the threads' sums, takes hundreds.
  constexpr unsigned kMostAdditions = 4 + 8;
  for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{50 * 1024 + 3}}) {
    const std::vector<grading02::SumTrace> traces = grading02::first_add_trace(n);
    for (std::size_t b = 0; b < traces.size(); ++b) {
      const std::size_t first = b * grading02::kPerBlock;
      const std::size_t expected =
          n - first < grading02::kPerBlock ? n - first : grading02::kPerBlock;
      INFO("n = " << n << ", block " << b << ": its sum holds " << traces[b].elements
                  << " elements, expected " << expected << ", with " << traces[b].additions
                  << " additions on the longest path (at most " << kMostAdditions << ")");
      CHECK(traces[b].elements == expected);
      CHECK(traces[b].additions <= kMostAdditions);
    }
  }
}
