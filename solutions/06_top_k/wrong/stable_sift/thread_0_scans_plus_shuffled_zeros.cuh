// A wrong answer to exercise 4 (lesson 06), sixth adversarial round (helper B). What it fakes: the
// block's prefix sum, again. thread_0_scans and thread_0_scans_beside_shuffles_for_show
// let thread 0 alone turn the block's 256 packed counts into exclusive sums in shared memory; adv4
// made no shuffle (caught by the shuffle count), adv5 made a warp scan by shuffles and threw it
// away (caught: with every shuffle delivering 1 more, its places did not change). This one keeps
// thread 0's walk for the places and makes each thread's five shuffles part of its places anyway:
// a butterfly (__shfl_xor_sync, lane masks 16, 8, 4, 2, 1) of a value that is always 0 (a thread's
// count of keys divided by 8: it has at most 4), whose total, 0, is added to both of the thread's
// starting places. The shuffles carry no count; the prefix sum never goes through them.
//
// Why each test passes:
// - every size, all or no winners, both runs of each: the places are thread 0's exact exclusive
//   sums (winners in the high 16 bits, candidates in the low 16, each at most 1024 a tile) plus
//   0, so every index lands at its place in input order; count_tiles adds the block's counts with
//   shared atomics between barriers and writes them once. Every thread of every tile, full or
//   not, makes exactly 5 shuffles: check_shuffles (5 or more for every thread of a full tile)
//   holds in every checked run.
// - "the scatter's places come through its shuffles": the untampered run is the right sift. In
//   the tampered run each shuffle delivers its value + 1, so each round of the butterfly doubles
//   the drift and adds 1: 1, 3, 7, 15, 31. Every thread starts 31 places late, the first 31
//   places stay all ones and the last 31 land in the guard (kTamperGuard, 65,536 places): the
//   output differs (and wrote_past_the_end is set), so "same" is false and CHECK(!same) passes.
// - past 2^31 keys: a tile's start and the indices are size_t until the 32-bit store.
// Compiled code: the scatter has its barriers and no atomic (shared memory by plain loads and
// stores, the shuffles are shfl.sync.bfly, which no rule names); count_tiles has barriers and
// only shared atomics.
// Time (factor 2): thread_0_scans, this scatter without its five shuffles, took about the
// model's own time on the H100 (its account); five shuffles a thread add nothing measurable to
// a sift whose time is two reads of 2^27 keys. Not measured here (no GPU for this round's
// helpers).
// A correct grader would check what the shuffles carry, not only that the places depend on
// them: e.g. a second tampered run in which each shuffle delivers the value of another lane (lane
// ^ 1) instead of its own + 1: the drift of a uniform 0 stays 0 and the places stay the same,
// while a real scan of counts changes them.
// Caught: a second tampered run makes each shuffle deliver what the neighbouring lane got, which
// leaves a shuffled zero a zero: the places stay the same.
// expect: fails: places were the same
#pragma once

#include <cstddef>
#include <cstdint>

#include "keys_support.cuh"  // Key (grading/)

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
  // The warp's five shuffles: a butterfly of the keys this thread holds past its four, eights at a
  // time (none), so every lane ends with 0.
  unsigned drift = (found.winners + found.candidates) / 8u;
  for (int lane_mask = 16; lane_mask > 0; lane_mask /= 2)
    drift += __shfl_xor_sync(0xFFFFFFFFu, drift, lane_mask);
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
  std::size_t w =
      offsets[blockIdx.x].winners + static_cast<std::size_t>(before >> 16) + std::size_t{drift};
  std::size_t c = offsets[blockIdx.x].candidates + static_cast<std::size_t>(before & 0xFFFFu) +
                  std::size_t{drift};
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
