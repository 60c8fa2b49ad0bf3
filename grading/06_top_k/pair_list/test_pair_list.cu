// Grades exercise 1 of lesson 06: insert_pair (pair_list.cuh). Every thread's list, after the
// thread has inserted its elements (in order, from the last to the first, or scattered, so that
// equal keys arrive in no order), must be its k best
// (key, index) pairs, duplicates kept, equal keys by lower index, then (kLowestKey, 0xFFFFFFFF):
// what a sort of the thread's pairs gives on the CPU. The sizes, the k and the grids are fixed
// edges and draws from the run's seed; the inputs include lists full of one key, keys equal to the
// lowest key (which must still beat an empty slot by their index), and indices past 16 bits. The
// [timing] case inserts keys that each land at a random place in the top of a full list of 64, for
// scripts/time_answer.py: an insertion moves the pairs below it, a re-sort of the list some 2,000
// compare-and-swaps. Fresh random inputs each run (the seed is printed).
#include <algorithm>
#include <utility>
#include <vector>

#include "device_memory.hpp"
#include "pair_list_harness.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace {

using Pair = std::pair<std::uint32_t, std::uint32_t>;  // (key, index)

bool better(const Pair& a, const Pair& b) {
  return a.first > b.first || (a.first == b.first && a.second < b.second);
}

// Thread t's list on the CPU: its pairs, best first, the first k of them.
std::vector<Pair> expected_list(const std::vector<lesson06::Key>& keys, int k, std::size_t threads,
                                std::size_t t) {
  std::vector<Pair> mine;
  for (std::size_t i = t; i < keys.size(); i += threads)
    mine.emplace_back(keys[i], static_cast<std::uint32_t>(i));
  const std::size_t kept = std::min(mine.size(), static_cast<std::size_t>(k));
  std::partial_sort(mine.begin(), mine.begin() + kept, mine.end(), better);
  mine.resize(kept);
  mine.resize(k, Pair{lesson06::kLowestKey, 0xFFFFFFFFu});
  return mine;
}

// The student's lists for `keys`, into poisoned output with guard zones, checked against the
// CPU's, every thread's.
using grading06::Order;

const char* order_name(Order order) {
  return order == Order::forwards    ? "forwards"
         : order == Order::backwards ? "backwards"
                                     : "scattered";
}

void check(const std::vector<lesson06::Key>& keys, int k, int blocks, int threads, Order order,
           const char* what) {
  const std::size_t lists = static_cast<std::size_t>(blocks) * threads;
  const course::DeviceBuffer<lesson06::Key> d_keys(keys);
  course::test::GuardedBuffer<std::uint32_t> out_keys(lists * k);
  course::test::GuardedBuffer<std::uint32_t> out_indices(lists * k);
  out_keys.poison(0x5A);
  out_indices.poison(0x5A);
  grading06::pair_lists(d_keys.data(), keys.size(), k, blocks, threads, order, out_keys.data(),
                        out_indices.data());
  INFO(what << ", n = " << keys.size() << ", k = " << k << ", " << blocks << " x " << threads
            << " threads, " << order_name(order));
  REQUIRE(out_keys.guards_intact());
  REQUIRE(out_indices.guards_intact());
  const std::vector<std::uint32_t> got_keys = out_keys.download();
  const std::vector<std::uint32_t> got_indices = out_indices.download();
  std::size_t wrong = 0;
  std::size_t first = 0;
  Pair got_first, expected_first;
  for (std::size_t t = 0; t < lists; ++t) {
    const std::vector<Pair> expected = expected_list(keys, k, lists, t);
    for (int j = 0; j < k; ++j) {
      const Pair got{got_keys[t * k + j], got_indices[t * k + j]};
      if (got != expected[j] && wrong++ == 0) {
        first = t * k + j;
        got_first = got;
        expected_first = expected[j];
      }
    }
  }
  INFO(wrong << " of " << lists * k << " list places differ; the first, place " << first % k
             << " of thread " << first / k << ": got (" << got_first.first << ", "
             << got_first.second << "), expected (" << expected_first.first << ", "
             << expected_first.second << ")");
  CHECK(wrong == 0);
}

// A grid drawn from the seed: 1 to 40 blocks of 32 to 256 threads, a warp at a time.
std::pair<int, int> drawn_grid(std::uint64_t stream) {
  const std::uint64_t seed = course::test::seed();
  return {1 + static_cast<int>(course::test::drawn(seed, stream) % 40),
          32 * (1 + static_cast<int>(course::test::drawn(seed, stream + 1) % 8))};
}

}  // namespace

TEST_CASE("every thread keeps its k best pairs, forwards, backwards and scattered", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  // k at the ends and at a warp's 32, and two drawn; sizes at the edges of a warp and of a grid's
  // threads, past 16 bits of index, and drawn.
  std::vector<std::size_t> ks = {1, 2, 31, 32, 33, 63, 64};
  for (std::size_t k : course::test::at_edges(course::test::seed(), 100, {8, 16, 32}, 1, 64, 2))
    ks.push_back(k);
  course::test::drawn_sizes(seed, ks, {}, 0, 0, "k");
  const std::vector<std::size_t> sizes =
      course::test::drawn_sizes(seed, {1, 31, 33, 1000, 100003}, {32, 256, 1024}, 200000, 2, "n");
  const lesson06::Dist dists[] = {lesson06::Dist::source,    lesson06::Dist::dups,
                                  lesson06::Dist::ascending, lesson06::Dist::descending,
                                  lesson06::Dist::extremes,  lesson06::Dist::equal};
  std::uint64_t stream = 200;
  for (lesson06::Dist dist : dists) {
    for (std::size_t k : ks) {
      for (std::size_t n : sizes) {
        const auto keys = lesson06::keys_of(lesson06::make_input<std::int32_t>(n, dist, seed + n));
        for (Order order : {Order::forwards, Order::backwards, Order::scattered}) {
          const std::pair<int, int> grid = drawn_grid(stream += 2);
          check(keys, static_cast<int>(k), grid.first, grid.second, order,
                lesson06::dists().name(dist).c_str());
        }
      }
    }
  }
}

TEST_CASE("duplicates are all kept, by index, whatever the grid", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  std::vector<std::pair<int, int>> grids = {{1, 32}, {3, 256}, {32, 32}};
  for (std::uint64_t s = 0; s < 3; ++s)
    grids.push_back(drawn_grid(300 + 2 * s));
  const int k_dups = 33 + static_cast<int>(course::test::drawn(seed, 310) % 32);
  const int k_equal = 1 + static_cast<int>(course::test::drawn(seed, 311) % 8);
  for (const std::pair<int, int>& grid : grids) {
    // 64 values, each hundreds of times per thread: the lists fill with equal keys.
    check(lesson06::keys_of(lesson06::make_input<std::int32_t>(500000, lesson06::Dist::dups, seed)),
          k_dups, grid.first, grid.second, Order::backwards, "dups");
    check(lesson06::keys_of(lesson06::make_input<std::int32_t>(500000, lesson06::Dist::dups, seed)),
          k_dups, grid.first, grid.second, Order::scattered, "dups");
    check(lesson06::keys_of(lesson06::make_input<std::int32_t>(3000, lesson06::Dist::equal, seed)),
          k_equal, grid.first, grid.second, Order::forwards, "equal");
    check(lesson06::keys_of(lesson06::make_input<std::int32_t>(3000, lesson06::Dist::equal, seed)),
          k_equal, grid.first, grid.second, Order::scattered, "equal");
    // Every key the lowest (INT_MIN's): an empty slot holds that key too, with index 0xFFFFFFFF,
    // and each real pair beats it by its index; more than 65,536 of them in one warp's lists.
    const std::vector<lesson06::Key> lowest(70000 + course::test::drawn(seed, 312) % 1000,
                                            lesson06::kLowestKey);
    check(lowest, 64, grid.first, grid.second, Order::backwards, "every key the lowest");
    check(lowest, 64, grid.first, grid.second, Order::scattered, "every key the lowest");
  }
}

TEST_CASE("timing: keys that each land at a random place near the top of a full list of 64",
          "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR in the lesson's
  // CMakeLists.txt): each thread's keys rise by 64 a step, plus a random 0 to 4095, so each key
  // beats the list's tail and lands at a random place among the pairs of the last 64 steps, about
  // 1,000 times a thread on some 33,000 threads (a couple of ms on the H100). An insertion moves
  // the pairs below it; re-sorting the list after each key (some 2,000 compare-and-swaps), or an
  // answer that inserts properly only at the head, takes many times as long. A sample of the
  // threads is checked after every call.
  const std::uint64_t seed = course::test::seed();
  const int blocks = 256 + static_cast<int>(course::test::drawn(seed, 400) % 16);
  const int threads = 128;
  const std::size_t all = static_cast<std::size_t>(blocks) * threads;
  const std::size_t n = (std::size_t{1} << 25) + course::test::drawn(seed, 401) % 4096;
  const int k = 64;
  std::vector<lesson06::Key> keys(n);
  for (std::size_t i = 0; i < n; ++i) {  // step s of a thread: 64 s plus 0 to 4095
    keys[i] = static_cast<lesson06::Key>((i / all) * 64 + course::test::drawn(seed, i) % 4096);
  }
  // Each timed call gets keys of its own (all of them raised by 65,536 more than the last call's,
  // off the clock), and a sample of its lists is checked before the next: no call can hand back
  // lists kept from an earlier one.
  course::DeviceBuffer<lesson06::Key> d_keys(n);
  course::DeviceBuffer<std::uint32_t> out_keys(all * k);
  course::DeviceBuffer<std::uint32_t> out_indices(all * k);
  std::vector<lesson06::Key> current;
  int calls = 0;
  const auto check_sample = [&] {
    const std::vector<std::uint32_t> got_keys = out_keys.download();
    const std::vector<std::uint32_t> got_indices = out_indices.download();
    for (int sample = 0; sample < 32; ++sample) {
      const std::size_t t = course::test::drawn(seed, 500 + sample) % all;
      const std::vector<Pair> expected = expected_list(current, k, all, t);
      std::size_t wrong = 0;
      for (int j = 0; j < k; ++j)
        wrong += Pair{got_keys[t * k + j], got_indices[t * k + j]} != expected[j];
      INFO("timed call " << calls - 1 << ", thread " << t << " of " << all);
      REQUIRE(wrong == 0);
    }
  };
  const auto next_keys = [&] {
    if (calls > 0) check_sample();
    current = keys;
    for (lesson06::Key& key : current)
      key += static_cast<lesson06::Key>(calls) * 65536u;
    d_keys.upload(current.data(), n);
    ++calls;
  };
  course::test::report_time(
      [&] {
        grading06::pair_lists(d_keys.data(), n, k, blocks, threads, Order::forwards,
                              out_keys.data(), out_indices.data());
      },
      9, next_keys);
  check_sample();
}
