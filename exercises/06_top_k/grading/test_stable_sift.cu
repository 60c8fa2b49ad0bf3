// Grades exercise 4 of lesson 06: count_tiles and scatter_tiles (stable_sift.cuh). Each tile's
// counts must be right, and the winners and candidates must be exactly the indices a stable
// partition on the CPU gives, in input order, run after run: an append with atomics puts them in
// the threads' order of arrival, which is not. Fresh random inputs each run (the seed is printed).
#include <algorithm>
#include <random>
#include <vector>

#include "device_memory.hpp"
#include "reference.hpp"
#include "stable_sift_harness.hpp"
#include "testing.hpp"

namespace {

void check_sift(const std::vector<lesson06::Key>& keys, lesson06::Key low, lesson06::Key high,
                const char* what) {
  const std::size_t n = keys.size();
  std::vector<unsigned> tile_winners((n + grading06::kTile - 1) / grading06::kTile, 0);
  std::vector<unsigned> tile_candidates(tile_winners.size(), 0);
  std::vector<std::uint32_t> winners, candidates;
  for (std::size_t i = 0; i < n; ++i) {
    if (keys[i] > high) {
      winners.push_back(static_cast<std::uint32_t>(i));
      ++tile_winners[i / grading06::kTile];
    } else if (keys[i] >= low) {
      candidates.push_back(static_cast<std::uint32_t>(i));
      ++tile_candidates[i / grading06::kTile];
    }
  }
  const course::DeviceBuffer<lesson06::Key> d_keys(keys);
  for (int run = 0; run < 2; ++run) {
    const grading06::Sifted got = grading06::stable_sift(d_keys.data(), n, low, high);
    INFO(what << ", n = " << n << ", keys above " << high << " and in [" << low << ", " << high
              << "], run " << run);
    INFO("each tile's counts of winners and of candidates");
    REQUIRE(course::test::mismatch(got.tile_winners, tile_winners) == "");
    REQUIRE(course::test::mismatch(got.tile_candidates, tile_candidates) == "");
    CHECK(!got.wrote_past_the_end);
    INFO("the winners' indices, in input order");
    CHECK(course::test::mismatch(got.winners, winners) == "");
    INFO("the candidates' indices, in input order");
    CHECK(course::test::mismatch(got.candidates, candidates) == "");
  }
}

}  // namespace

TEST_CASE("the sift keeps the input order, at every size", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  std::mt19937_64 rng(seed);
  for (lesson06::Dist dist : {lesson06::Dist::seed, lesson06::Dist::dups, lesson06::Dist::ascending,
                              lesson06::Dist::extremes}) {
    for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{1023}, std::size_t{1024},
                          std::size_t{1025}, std::size_t{100003}, std::size_t{1 << 22}}) {
      const std::vector<lesson06::Key> keys =
          lesson06::keys_of(lesson06::make_input<std::int32_t>(n, dist, seed + n));
      // A bucket around a random key: some keys above it, some in it, most below.
      std::vector<lesson06::Key> sorted = keys;
      std::sort(sorted.begin(), sorted.end());
      const lesson06::Key low = sorted[rng() % n];
      const lesson06::Key high = std::max(low, sorted[std::min(n - 1, rng() % n)]);
      check_sift(keys, low, high, lesson06::dists().name(dist).c_str());
    }
  }
}

TEST_CASE("all winners, all candidates, and none of either", "[gpu]") {
  const std::vector<lesson06::Key> keys = lesson06::keys_of(
      lesson06::make_input<std::int32_t>(300007, lesson06::Dist::seed, course::test::seed()));
  check_sift(keys, 0, 0xFFFFFFFFu, "every key a candidate");
  check_sift(keys, 0, 0, "every key but the lowest a winner");
  check_sift(keys, 0xFFFFFFFFu, 0xFFFFFFFFu, "nothing above, almost nothing in");
}
