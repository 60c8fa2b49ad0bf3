// Grades exercise 3 of lesson 02: warp_reduce and block_reduce in any_operator.cuh, through the
// largest and the smallest element, of ints and floats, with extremes. Fresh random inputs each
// run (the seed is printed).
#include <any_operator.cuh>  // <>: the starter or the solution, whichever the build chose

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <vector>

#include "reference.hpp"
#include "testing.hpp"

namespace {

template <typename T>
void check_max_min(const std::vector<T>& x, const char* what) {
  const course::DeviceBuffer<T> d_x(x);
  INFO(what << ", n = " << x.size());
  CHECK(exercise02::reduce_max(d_x.data(), x.size()) == *std::max_element(x.begin(), x.end()));
  CHECK(exercise02::reduce_min(d_x.data(), x.size()) == *std::min_element(x.begin(), x.end()));
}

}  // namespace

TEST_CASE("max and min of random ints and floats, at every size", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (std::size_t n :
       {std::size_t{1}, std::size_t{2}, std::size_t{31}, std::size_t{33}, std::size_t{257},
        std::size_t{4097}, std::size_t{1000003}, std::size_t{1 + seed % 500000}}) {
    check_max_min(course::random_ints<int>(n, seed + n, -1000000, 1000000), "ints");
    check_max_min(lesson02::make_input<float>(n, lesson02::Dist::uniform, seed + n), "floats");
  }
}

TEST_CASE("max and min with extremes, negatives only, and all equal", "[gpu]") {
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
