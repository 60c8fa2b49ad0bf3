// What the tests of exercise 4 (lesson 06) call: the student's count_tiles and scatter_tiles, run
// by their harness (stable_sift_harness.cu).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "../../probes/tamper.hpp"

namespace grading06 {

constexpr std::size_t kTile = 1024;

struct Sifted {
  std::vector<unsigned> tile_winners;  // count_tiles' counts, per tile
  std::vector<unsigned> tile_candidates;
  std::vector<std::uint32_t> winners;     // scatter_tiles' output: indices of keys above high
  std::vector<std::uint32_t> candidates;  // and of keys in [low, high]
  bool wrote_past_the_end = false;        // past the last winner's or candidate's place
  std::vector<unsigned> shuffles;  // per thread of scatter_tiles (tile b's at b kSiftThreads)
};

// The places past the end that a tampered run keeps watch on (see stable_sift).
constexpr std::size_t kTamperGuard = std::size_t{1} << 16;

// Sifts the n keys at d_keys (device memory): the student's count_tiles, the exclusive prefix sums
// of its counts over the tiles (computed here), then the student's scatter_tiles, whose shuffles
// are counted per thread. With `tamper`, each of the scatter's shuffles delivers something else
// than it should (grading/tamper.hpp), so a scatter whose places come through its shuffles writes
// other places.
Sifted stable_sift(const std::uint32_t* d_keys, std::size_t n, std::uint32_t low,
                   std::uint32_t high, grading::Tamper tamper = grading::Tamper::none);

// The same sift with everything left on the device, for the [timing] test case: the winners'
// indices go to d_winners and the candidates' to d_candidates (device memory, `capacity` places
// each). Returns the totals the tiles counted, {winners, candidates}; when either is past
// `capacity`, the scatter is not run.
std::pair<std::size_t, std::size_t> sift_on_device(const std::uint32_t* d_keys, std::size_t n,
                                                   std::uint32_t low, std::uint32_t high,
                                                   std::uint32_t* d_winners,
                                                   std::uint32_t* d_candidates,
                                                   std::size_t capacity);

}  // namespace grading06
