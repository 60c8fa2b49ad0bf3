// Grades exercise 3 of lesson 02: block_reduce (any_operator.cuh), for any operator and any number
// of threads per block, through the largest and the smallest element of ints and floats, with
// extremes; and a traced reduction checks the technique: every thread gets a result that holds
// each thread's value once, through a tree of shuffles (at most 5 steps in a warp and 5 over the
// warps), with one value per warp in shared memory. Fresh random inputs each run (the seed is
// printed).
#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <vector>

#include "any_operator_harness.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace {

const int kBlockSizes[] = {1, 7, 32, 33, 100, 256, 1000, 1024};

template <typename T>
void check_max_min(const std::vector<T>& x, const char* what) {
  const course::DeviceBuffer<T> d_x(x);
  for (int threads : kBlockSizes) {
    INFO(what << ", n = " << x.size() << ", " << threads << " threads per block");
    CHECK(grading02::reduce_max(d_x.data(), x.size(), threads) ==
          *std::max_element(x.begin(), x.end()));
    CHECK(grading02::reduce_min(d_x.data(), x.size(), threads) ==
          *std::min_element(x.begin(), x.end()));
  }
}

}  // namespace

TEST_CASE("max and min of random ints and floats, at every size", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{31}, std::size_t{33},
                        std::size_t{257}, std::size_t{100003}, std::size_t{1 + seed % 500000}}) {
    check_max_min(course::random_ints<int>(n, seed + n, -1000000, 1000000), "ints");
    check_max_min(lesson02::make_input<float>(n, lesson02::Dist::uniform, seed + n), "floats");
  }
}

TEST_CASE("max and min with extremes, negative numbers only, and all equal", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  std::vector<int> extremes = course::random_ints<int>(100003, seed, -5, 5);
  extremes[seed % extremes.size()] = INT_MAX;
  extremes[(seed / 7) % extremes.size()] = INT_MIN;
  check_max_min(extremes, "ints with INT_MIN and INT_MAX");
  check_max_min(course::random_ints<int>(70001, seed, INT_MIN, -1), "negative ints only");
  check_max_min(std::vector<int>(5000, -3), "all equal");
  std::vector<float> infinite = lesson02::make_input<float>(9999, lesson02::Dist::uniform, seed);
  infinite[seed % infinite.size()] = std::numeric_limits<float>::infinity();
  infinite[(seed / 3) % infinite.size()] = -std::numeric_limits<float>::infinity();
  check_max_min(infinite, "floats with -inf and +inf");
  std::vector<float> negative = lesson02::make_input<float>(4097, lesson02::Dist::uniform, seed);
  for (float& v : negative)
    v = -std::fabs(v) - 1.0f;
  check_max_min(negative, "negative floats only");
}

TEST_CASE("every thread's result holds each value once, through a tree of shuffles", "[gpu]") {
  constexpr unsigned kMostSteps = 5 + 5;  // log2(32) in the warps, log2(32) over the warps
  for (int threads : kBlockSizes) {
    const grading02::ReduceTrace trace = grading02::trace_block_reduce(threads);
    for (int t = 0; t < threads; ++t) {
      INFO(threads << " threads per block: thread " << t << " got a result that holds "
                   << trace.values[t] << " values, through " << trace.steps[t]
                   << " combining steps on its longest path (at most " << kMostSteps << ")");
      REQUIRE(trace.values[t] == static_cast<unsigned>(threads));
      REQUIRE(trace.steps[t] <= kMostSteps);
    }
    // One value per warp, and the result: a shared array of the block's values is a tree in shared
    // memory, not the shuffles the exercise asks for.
    const std::size_t most_shared = (32 + 2) * grading02::kTracedValueBytes;
    INFO(threads << " threads per block: the kernel has " << trace.shared_bytes
                 << " bytes of shared memory; one value per warp and the result need at most "
                 << most_shared);
    CHECK(trace.shared_bytes <= most_shared);
  }
}
