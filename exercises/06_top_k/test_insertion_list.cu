// Grades exercise 1 of lesson 06: insert_value in insertion_list.cuh. Every thread's list, after
// the thread has inserted its elements, must be the k largest distinct keys of those elements
// (then the lowest key), as a set computes them on the CPU. Fresh random inputs each run (the seed
// is printed).
#include <insertion_list.cuh>  // <>: the starter or the solution, whichever the build chose

#include <algorithm>
#include <functional>
#include <set>
#include <vector>

#include "device_memory.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace {

// Each thread's list, on the CPU: the thread's elements are i = t, t + T, ...
std::vector<lesson06::Key> expected_lists(const std::vector<std::int32_t>& in, int k,
                                          std::size_t threads) {
  std::vector<lesson06::Key> lists(threads * k, lesson06::kLowestKey);
  for (std::size_t t = 0; t < threads; ++t) {
    std::set<lesson06::Key, std::greater<lesson06::Key>> keys;
    for (std::size_t i = t; i < in.size(); i += threads)
      keys.insert(course::order_key(in[i]));
    std::size_t j = 0;
    for (auto it = keys.begin(); it != keys.end() && j < static_cast<std::size_t>(k); ++it)
      lists[t * k + j++] = *it;
  }
  return lists;
}

void check(const std::vector<std::int32_t>& in, int k, int blocks, int threads, const char* what) {
  const std::size_t lists = static_cast<std::size_t>(blocks) * threads;
  const course::DeviceBuffer<std::int32_t> d_in(in);
  course::test::GuardedBuffer<lesson06::Key> out(lists * k);
  out.poison(0x5A);
  exercise06::thread_lists(d_in.data(), in.size(), k, blocks, threads, out.data());
  INFO(what << ", n = " << in.size() << ", k = " << k << ", " << blocks << " x " << threads
            << " threads");
  REQUIRE(out.guards_intact());
  CHECK(course::test::mismatch(out.download(), expected_lists(in, k, lists)) == "");
}

}  // namespace

TEST_CASE("every thread keeps its k largest distinct values", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (lesson06::Dist dist : {lesson06::Dist::seed, lesson06::Dist::dups, lesson06::Dist::ascending,
                              lesson06::Dist::descending, lesson06::Dist::extremes}) {
    for (int k : {1, 2, 5, 10, 48, 64}) {
      for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{100003}}) {
        check(lesson06::make_input<std::int32_t>(n, dist, seed + n), k, 4, 64,
              lesson06::dist_name(dist).c_str());
      }
    }
  }
}

TEST_CASE("duplicates are kept once, whatever the grid", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (int blocks : {1, 3, 32}) {
    for (int threads : {32, 256}) {
      // 64 values, each hundreds of times per thread: only distinct keys may stay.
      check(lesson06::make_input<std::int32_t>(500000, lesson06::Dist::dups, seed), 40, blocks,
            threads, "dups");
      check(lesson06::make_input<std::int32_t>(3000, lesson06::Dist::equal, seed), 3, blocks,
            threads, "equal");
    }
  }
}
