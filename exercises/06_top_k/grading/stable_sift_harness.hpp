// What the tests of exercise 4 (lesson 06) call: the student's count_tiles and scatter_tiles, run
// by their harness (stable_sift_harness.cu).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace grading06 {

constexpr std::size_t kTile = 1024;

struct Sifted {
  std::vector<unsigned> tile_winners;  // count_tiles' counts, per tile
  std::vector<unsigned> tile_candidates;
  std::vector<std::uint32_t> winners;     // scatter_tiles' output: indices of keys above high
  std::vector<std::uint32_t> candidates;  // and of keys in [low, high]
  bool wrote_past_the_end = false;        // past the last winner's or candidate's place
};

// Sifts the n keys at d_keys (device memory): the student's count_tiles, the exclusive prefix sums
// of its counts over the tiles (computed here), then the student's scatter_tiles.
Sifted stable_sift(const std::uint32_t* d_keys, std::size_t n, std::uint32_t low,
                   std::uint32_t high);

}  // namespace grading06
