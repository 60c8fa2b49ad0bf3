// The harness of exercise 4 (lesson 06): one block per tile runs the student's count_tiles; the
// tiles' counts become offsets on the CPU; one block per tile runs the student's scatter_tiles,
// its shuffles probed (shuffle_probe.cuh) in every run of stable_sift (sift_on_device, for the
// timed case and the one past 2^31 keys, does not probe).
#include "../../probes/harness.hpp"
#include "../../probes/shuffle_probe.cuh"  // before the student's file: its shuffles are counted

#include <stable_sift.cuh>  // the student's file

#include <algorithm>

#include "stable_sift_harness.hpp"

static_assert(exercise06::kTile == grading06::kTile && exercise06::kSiftThreads == 256,
              "the exercise's constants are part of its statement: keep them");

namespace grading06 {
namespace {

using exercise06::SiftCounts;

std::size_t tiles_of(std::size_t n) {
  return (n + kTile - 1) / kTile;
}

// The student's count_tiles, one block per tile, into `counts` (one per tile), poisoned first;
// returns them.
std::vector<SiftCounts> counted_tiles(const std::uint32_t* d_keys, std::size_t n, std::uint32_t low,
                                      std::uint32_t high,
                                      course::DeviceBuffer<SiftCounts>& counts) {
  counts.fill_bytes(0xFF);
  grading::watched([&] {
    exercise06::count_tiles<<<static_cast<unsigned>(tiles_of(n)), exercise06::kSiftThreads>>>(
        d_keys, n, low, high, counts.data());
  });
  return counts.download();
}

// The student's scatter_tiles, one block per tile, from the tiles' offsets.
void scatter(const std::uint32_t* d_keys, std::size_t n, std::uint32_t low, std::uint32_t high,
             const SiftCounts* d_offsets, std::uint32_t* d_winners, std::uint32_t* d_candidates) {
  exercise06::scatter_tiles<<<static_cast<unsigned>(tiles_of(n)), exercise06::kSiftThreads>>>(
      d_keys, n, low, high, d_offsets, d_winners, d_candidates);
}

}  // namespace

Sifted stable_sift(const std::uint32_t* d_keys, std::size_t n, std::uint32_t low,
                   std::uint32_t high, grading::Tamper tamper) {
  Sifted out;
  course::DeviceBuffer<SiftCounts> counts(tiles_of(n));
  std::vector<SiftCounts> offsets = counted_tiles(d_keys, n, low, high, counts);
  SiftCounts total{0, 0};
  for (SiftCounts& c : offsets) {
    out.tile_winners.push_back(c.winners);
    out.tile_candidates.push_back(c.candidates);
    const SiftCounts here = c;
    c = total;
    total.winners += here.winners;
    total.candidates += here.candidates;
  }
  if (total.winners > n || total.candidates > n) return out;  // counts that cannot be right
  const course::DeviceBuffer<SiftCounts> d_offsets(offsets);
  // Past the last place of each, a guard that must still hold all ones: one place, or with
  // tampered shuffles, room for places a little off.
  const std::size_t guard = tamper == grading::Tamper::none ? 1 : kTamperGuard;
  course::DeviceBuffer<std::uint32_t> winners(total.winners + guard);
  course::DeviceBuffer<std::uint32_t> candidates(total.candidates + guard);
  winners.fill_bytes(0xFF);
  candidates.fill_bytes(0xFF);
  const auto run = [&] {
    scatter(d_keys, n, low, high, d_offsets.data(), winners.data(), candidates.data());
  };
  out.shuffles =
      grading::probe_shuffles(tiles_of(n) * exercise06::kSiftThreads, run, tamper).shuffles;
  out.winners = winners.download();
  out.candidates = candidates.download();
  const auto untouched = [](const std::vector<std::uint32_t>& v, std::size_t from) {
    return std::all_of(v.begin() + from, v.end(), [](std::uint32_t i) { return i == 0xFFFFFFFFu; });
  };
  out.wrote_past_the_end =
      !untouched(out.winners, total.winners) || !untouched(out.candidates, total.candidates);
  out.winners.resize(total.winners);
  out.candidates.resize(total.candidates);
  return out;
}

std::pair<std::size_t, std::size_t> sift_on_device(const std::uint32_t* d_keys, std::size_t n,
                                                   std::uint32_t low, std::uint32_t high,
                                                   std::uint32_t* d_winners,
                                                   std::uint32_t* d_candidates,
                                                   std::size_t capacity) {
  course::DeviceBuffer<SiftCounts> counts(tiles_of(n));
  std::vector<SiftCounts> offsets = counted_tiles(d_keys, n, low, high, counts);
  std::size_t winners = 0;
  std::size_t candidates = 0;
  for (SiftCounts& c : offsets) {
    const SiftCounts here = c;
    c = SiftCounts{static_cast<unsigned>(winners), static_cast<unsigned>(candidates)};
    winners += here.winners;
    candidates += here.candidates;
  }
  if (winners > capacity || candidates > capacity) return {winners, candidates};
  counts.upload(offsets);
  grading::watched([&] { scatter(d_keys, n, low, high, counts.data(), d_winners, d_candidates); });
  return {winners, candidates};
}

}  // namespace grading06
