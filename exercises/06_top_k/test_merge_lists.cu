// Grades exercise 2 of lesson 06: merge_top_k in merge_lists.cuh, against std::merge on the CPU,
// for lists with many duplicates and every k from 1 to 300; then in v1's block tree, against the
// top k of each block's keys. Fresh random inputs each run (the seed is printed).
#include <merge_lists.cuh>  // <>: the starter or the solution, whichever the build chose

#include <algorithm>
#include <functional>
#include <random>
#include <vector>

#include "device_memory.hpp"
#include "reference.hpp"
#include "testing.hpp"

TEST_CASE("merge_top_k keeps the k largest of two descending lists", "[gpu]") {
  std::mt19937_64 rng(course::test::seed());
  for (int k : {1, 2, 3, 7, 32, 33, 100, 300}) {
    for (unsigned range : {4u, 1000u, 0xFFFFFFFFu}) {  // many duplicates, some, almost none
      const std::size_t pairs = 1000;
      std::vector<lesson06::Key> a(pairs * k);
      std::vector<lesson06::Key> b(pairs * k);
      std::vector<lesson06::Key> expected(pairs * k);
      for (std::size_t p = 0; p < pairs; ++p) {
        // Some pairs have all of b above all of a, or the other way round.
        const unsigned shift_a = p % 3 == 1 ? 1u << 20 : 0u;
        const unsigned shift_b = p % 3 == 2 ? 1u << 20 : 0u;
        for (int i = 0; i < k; ++i) {
          a[p * k + i] = static_cast<lesson06::Key>(rng() % range) / 2 + shift_a;
          b[p * k + i] = static_cast<lesson06::Key>(rng() % range) / 2 + shift_b;
        }
        std::sort(a.begin() + p * k, a.begin() + (p + 1) * k, std::greater<lesson06::Key>());
        std::sort(b.begin() + p * k, b.begin() + (p + 1) * k, std::greater<lesson06::Key>());
        std::vector<lesson06::Key> both(2 * k);
        std::merge(a.begin() + p * k, a.begin() + (p + 1) * k, b.begin() + p * k,
                   b.begin() + (p + 1) * k, both.begin(), std::greater<lesson06::Key>());
        std::copy(both.begin(), both.begin() + k, expected.begin() + p * k);
      }
      const course::DeviceBuffer<lesson06::Key> d_a(a);
      const course::DeviceBuffer<lesson06::Key> d_b(b);
      course::test::GuardedBuffer<lesson06::Key> out(pairs * k);
      out.poison(0x5A);
      exercise06::merge_pairs(d_a.data(), d_b.data(), k, pairs, out.data());
      INFO("k = " << k << ", keys below " << range);
      REQUIRE(out.guards_intact());
      CHECK(course::test::mismatch(out.download(), expected) == "");
    }
  }
}

TEST_CASE("the merge finds each block's top k in v1's tree", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (lesson06::Dist dist :
       {lesson06::Dist::seed, lesson06::Dist::dups, lesson06::Dist::ascending}) {
    for (int k : {1, 10, 32}) {
      const std::size_t n = 200003;
      const int blocks = 8;
      const std::vector<lesson06::Key> keys =
          lesson06::keys_of(lesson06::make_input<std::int32_t>(n, dist, seed + k));
      // Block b's keys: i with (i / 128) % blocks == b, as the grid-stride loop deals them out.
      std::vector<lesson06::Key> expected(static_cast<std::size_t>(blocks) * k);
      for (int b = 0; b < blocks; ++b) {
        std::vector<lesson06::Key> mine;
        for (std::size_t i = 0; i < n; ++i) {
          if ((i / exercise06::kTreeThreads) % blocks == static_cast<std::size_t>(b)) {
            mine.push_back(keys[i]);
          }
        }
        std::sort(mine.begin(), mine.end(), std::greater<lesson06::Key>());
        std::copy(mine.begin(), mine.begin() + k,
                  expected.begin() + static_cast<std::size_t>(b) * k);
      }
      const course::DeviceBuffer<lesson06::Key> d_keys(keys);
      course::test::GuardedBuffer<lesson06::Key> out(expected.size());
      out.poison(0x5A);
      exercise06::block_top_k(d_keys.data(), n, k, blocks, out.data());
      INFO(lesson06::dist_name(dist) << ", k = " << k);
      REQUIRE(out.guards_intact());
      CHECK(course::test::mismatch(out.download(), expected) == "");
    }
  }
}
