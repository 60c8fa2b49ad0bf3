// Grades exercise 1 of lesson 06: insert_pair (pair_list.cuh). Every thread's list, after the
// thread has inserted its elements (in order, or from the last to the first), must be its k best
// (key, index) pairs, duplicates kept, equal keys by lower index, then (kLowestKey, 0xFFFFFFFF):
// what a sort of the thread's pairs gives on the CPU. Fresh random inputs each run (the seed is
// printed).
#include <algorithm>
#include <utility>
#include <vector>

#include "device_memory.hpp"
#include "pair_list_harness.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace {

using Pair = std::pair<std::uint32_t, std::uint32_t>;  // (key, index)

// Each thread's list on the CPU: the thread's pairs, best first, the first k of them.
std::vector<Pair> expected_lists(const std::vector<lesson06::Key>& keys, int k,
                                 std::size_t threads) {
  std::vector<Pair> lists(threads * k, Pair{lesson06::kLowestKey, 0xFFFFFFFFu});
  for (std::size_t t = 0; t < threads; ++t) {
    std::vector<Pair> mine;
    for (std::size_t i = t; i < keys.size(); i += threads)
      mine.emplace_back(keys[i], static_cast<std::uint32_t>(i));
    std::sort(mine.begin(), mine.end(), [](const Pair& a, const Pair& b) {
      return a.first > b.first || (a.first == b.first && a.second < b.second);
    });
    for (std::size_t j = 0; j < mine.size() && j < static_cast<std::size_t>(k); ++j)
      lists[t * k + j] = mine[j];
  }
  return lists;
}

void check(const std::vector<lesson06::Key>& keys, int k, int blocks, int threads, bool backwards,
           const char* what) {
  const std::size_t lists = static_cast<std::size_t>(blocks) * threads;
  const course::DeviceBuffer<lesson06::Key> d_keys(keys);
  course::test::GuardedBuffer<std::uint32_t> out_keys(lists * k);
  course::test::GuardedBuffer<std::uint32_t> out_indices(lists * k);
  out_keys.poison(0x5A);
  out_indices.poison(0x5A);
  grading06::pair_lists(d_keys.data(), keys.size(), k, blocks, threads, backwards, out_keys.data(),
                        out_indices.data());
  INFO(what << ", n = " << keys.size() << ", k = " << k << ", " << blocks << " x " << threads
            << " threads" << (backwards ? ", backwards" : ""));
  REQUIRE(out_keys.guards_intact());
  REQUIRE(out_indices.guards_intact());
  const std::vector<std::uint32_t> got_keys = out_keys.download();
  const std::vector<std::uint32_t> got_indices = out_indices.download();
  std::vector<Pair> got(lists * k);
  for (std::size_t j = 0; j < got.size(); ++j)
    got[j] = {got_keys[j], got_indices[j]};
  const std::vector<Pair> expected = expected_lists(keys, k, lists);
  std::size_t wrong = 0;
  std::size_t first = 0;
  for (std::size_t j = 0; j < got.size(); ++j) {
    if (got[j] != expected[j] && wrong++ == 0) first = j;
  }
  INFO(wrong << " of " << got.size() << " list places differ; the first, place " << first % k
             << " of thread " << first / k << ": got (" << got[first].first << ", "
             << got[first].second << "), expected (" << expected[first].first << ", "
             << expected[first].second << ")");
  CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("every thread keeps its k best pairs, forwards and backwards", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (lesson06::Dist dist : {lesson06::Dist::seed, lesson06::Dist::dups, lesson06::Dist::ascending,
                              lesson06::Dist::descending, lesson06::Dist::extremes}) {
    for (int k : {1, 2, 5, 10, 48, 64}) {
      for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{100003}}) {
        const auto keys = lesson06::keys_of(lesson06::make_input<std::int32_t>(n, dist, seed + n));
        for (bool backwards : {false, true})
          check(keys, k, 4, 64, backwards, lesson06::dists().name(dist).c_str());
      }
    }
  }
}

TEST_CASE("duplicates are all kept, by index, whatever the grid", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (int blocks : {1, 3, 32}) {
    for (int threads : {32, 256}) {
      // 64 values, each hundreds of times per thread: the lists fill with equal keys.
      check(
          lesson06::keys_of(lesson06::make_input<std::int32_t>(500000, lesson06::Dist::dups, seed)),
          40, blocks, threads, true, "dups");
      check(
          lesson06::keys_of(lesson06::make_input<std::int32_t>(3000, lesson06::Dist::equal, seed)),
          3, blocks, threads, false, "equal");
    }
  }
}
