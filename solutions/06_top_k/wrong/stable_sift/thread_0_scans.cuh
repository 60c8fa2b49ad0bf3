// A wrong answer to exercise 4 (lesson 06), from the fourth adversarial round. What it fakes: the
// block's prefix sum. Each thread of the scatter counts its four keys and leaves the two counts in
// shared memory (packed in one word: winners in the high 16 bits, candidates in the low 16, each at
// most 1024 in a tile); then thread 0 alone walks the 256 words, one after the other, and turns
// them into exclusive prefix sums in place, while the other 255 threads wait at a barrier. No
// shuffle, no scan by the warps: one thread does the block's sum, the step the exercise is about
// ("an exclusive prefix sum of the threads' counts over the block
// ... shuffles within each warp, then the warps' totals"). thread_zero_scatters, which makes thread
// 0 walk the tile's 1024 keys and write every index, is caught by the clock; this one leaves the
// keys and the writes to every thread and gives thread 0 only the 256 counts.
//
// Why each test passes:
// - every size, all or no winners, both runs: the places come from exact exclusive sums in thread
//   order, so the indices are in input order; count_tiles adds its block's counts with shared
//   atomics behind barriers and writes them once.
// - past 2^31 keys: a tile's start and the indices are size_t until the 32-bit store.
// Compiled code: the scatter has its two barriers and no atomic (the shared words are plain loads
// and stores); count_tiles has barriers and only shared atomics.
// Time (factor 2): thread 0's walk is 256 dependent adds a tile, while the SM's other blocks go on
// loading their keys, so the whole sift, which is mostly two reads of the keys, takes no longer:
// on the H100, scripts/time_answer.py found it within the bound (about the model's own time).
// Every test case passed then, and the clock cannot tell it from the model.
// Caught: the scatter's shuffles are probed in every sift check_sift makes; every thread of a full tile must
// make 5 or more (a warp's prefix sum by shuffles takes that many), and this one makes none. (With
// shuffles added for show, the places would not change when the probe makes each shuffle deliver
// 1 more: a test case checks that too.)
// expect: fails: fewer than 5 shuffles
#pragma once

#include <cstddef>
#include <cstdint>

#include "keys_support.cuh"

namespace exercise06 {

constexpr int kSiftThreads = 256;
constexpr std::size_t kTile = 4 * kSiftThreads;  // keys per tile: four consecutive per thread

struct SiftCounts {
  unsigned winners;     // keys above the bucket: key > high
  unsigned candidates;  // keys in it: low <= key <= high
};

// What this thread finds among its four keys of the block's tile.
__device__ inline SiftCounts four_keys(const Key* keys, std::size_t n, Key low, Key high) {
  const std::size_t start = blockIdx.x * kTile + 4 * static_cast<std::size_t>(threadIdx.x);
  SiftCounts found{0, 0};
  for (std::size_t i = start; i < start + 4 && i < n; ++i) {
    const Key key = keys[i];
    if (key > high) {
      ++found.winners;
    } else if (key >= low) {
      ++found.candidates;
    }
  }
  return found;
}

__global__ void count_tiles(const Key* keys, std::size_t n, Key low, Key high, SiftCounts* counts) {
  __shared__ unsigned tile_winners;
  __shared__ unsigned tile_candidates;
  if (threadIdx.x == 0) {
    tile_winners = 0;
    tile_candidates = 0;
  }
  __syncthreads();
  const SiftCounts found = four_keys(keys, n, low, high);
  if (found.winners > 0) atomicAdd(&tile_winners, found.winners);
  if (found.candidates > 0) atomicAdd(&tile_candidates, found.candidates);
  __syncthreads();
  if (threadIdx.x == 0) counts[blockIdx.x] = SiftCounts{tile_winners, tile_candidates};
}

__global__ void scatter_tiles(const Key* keys, std::size_t n, Key low, Key high,
                              const SiftCounts* offsets, std::uint32_t* winners,
                              std::uint32_t* candidates) {
  __shared__ unsigned packed[kSiftThreads];  // winners << 16 | candidates, then the sums before
  const SiftCounts found = four_keys(keys, n, low, high);
  packed[threadIdx.x] = (found.winners << 16) | found.candidates;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned running = 0;
#pragma unroll 16
    for (int t = 0; t < kSiftThreads; ++t) {
      const unsigned here = packed[t];
      packed[t] = running;
      running += here;
    }
  }
  __syncthreads();
  const unsigned before = packed[threadIdx.x];
  std::size_t w = offsets[blockIdx.x].winners + static_cast<std::size_t>(before >> 16);
  std::size_t c = offsets[blockIdx.x].candidates + static_cast<std::size_t>(before & 0xFFFFu);
  const std::size_t start = blockIdx.x * kTile + 4 * static_cast<std::size_t>(threadIdx.x);
  for (std::size_t i = start; i < start + 4 && i < n; ++i) {
    const Key key = keys[i];
    if (key > high) {
      winners[w++] = static_cast<std::uint32_t>(i);
    } else if (key >= low) {
      candidates[c++] = static_cast<std::uint32_t>(i);
    }
  }
}

}  // namespace exercise06
