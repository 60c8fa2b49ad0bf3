// Grades exercise 4 of lesson 05: bitonic_sort_shared (bitonic_block.cuh), against std::sort in
// totalOrder, bit for bit, on every input of the lesson at sizes from 1 to 8192, run after run; and
// a log of its compare-and-swaps checks the technique: they must be exactly Batcher's network,
// pair for pair and in the direction of each pair, whatever order the threads make them in. Fresh
// random inputs each run (the seed is printed).
#include <algorithm>
#include <iterator>
#include <utility>
#include <vector>

#include "bitonic_block_harness.hpp"
#include "reference.hpp"
#include "sort_check.cuh"
#include "testing.hpp"

namespace {

// Batcher's network on `size` places: every compare-and-swap as (the place that gets the smaller,
// the place that gets the larger), sorted so that two networks compare as multisets.
std::vector<std::pair<unsigned, unsigned>> batchers_network(unsigned size) {
  std::vector<std::pair<unsigned, unsigned>> pairs;
  for (unsigned k = 2; k <= size; k *= 2) {
    for (unsigned j = k / 2; j > 0; j /= 2) {
      for (unsigned x = 0; x < size; ++x) {
        if ((x & j) != 0) continue;
        if ((x & k) == 0) {
          pairs.emplace_back(x, x + j);
        } else {
          pairs.emplace_back(x + j, x);
        }
      }
    }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

void sort_block(const float* a, float* b, std::size_t m) {
  grading05::bitonic_block_sort(a, b, m);
}

}  // namespace

TEST_CASE("the bitonic block sort sorts every input, at every size up to a block's", "[gpu]") {
  for (lesson05::Dist dist : {lesson05::Dist::perm, lesson05::Dist::uniform, lesson05::Dist::sorted,
                              lesson05::Dist::reversed, lesson05::Dist::dups, lesson05::Dist::zeros,
                              lesson05::Dist::special}) {
    for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{31},
                          std::size_t{32}, std::size_t{33}, std::size_t{1000}, std::size_t{1024},
                          std::size_t{4097}, std::size_t{8192}}) {
      const std::vector<float> in = lesson05::make_input(n, dist, course::test::seed() + n);
      INFO(lesson05::dists().name(dist) << ", n = " << n);
      CHECK(lesson05::test::sorted_by(sort_block, in, lesson05::reference_sort(in)) == "");
    }
  }
  const std::vector<float> in =
      lesson05::make_input(8192, lesson05::Dist::special, course::test::seed());
  const std::vector<float> expected = lesson05::reference_sort(in);
  for (int run = 0; run < 5; ++run) {
    INFO("special, n = 8192, run " << run);
    CHECK(lesson05::test::sorted_by(sort_block, in, expected) == "");
  }
}

TEST_CASE("the compare-and-swaps are Batcher's network, pair for pair", "[gpu]") {
  for (unsigned size : {2u, 8u, 64u, 1024u, 8192u}) {
    std::vector<std::pair<unsigned, unsigned>> got = grading05::bitonic_block_network(size);
    std::sort(got.begin(), got.end());
    const std::vector<std::pair<unsigned, unsigned>> expected = batchers_network(size);
    std::size_t missing = 0;
    std::vector<std::pair<unsigned, unsigned>> extra;
    std::set_difference(got.begin(), got.end(), expected.begin(), expected.end(),
                        std::back_inserter(extra));
    std::vector<std::pair<unsigned, unsigned>> lacking;
    std::set_difference(expected.begin(), expected.end(), got.begin(), got.end(),
                        std::back_inserter(lacking));
    missing = lacking.size();
    INFO(size << " places: " << got.size() << " compare-and-swaps, Batcher's network has "
              << expected.size() << "; " << extra.size() << " not in the network ("
              << (extra.empty() ? 0u : extra[0].first) << " against "
              << (extra.empty() ? 0u : extra[0].second) << " first), " << missing
              << " of the network's missing");
    CHECK(extra.empty());
    CHECK(missing == 0);
  }
}
