// Exercise 4 (lesson 06, advanced): one pass of radix select, the sift, with the order kept. Once
// a pass has chosen the bucket that holds the k-th key, every key above the bucket is a winner and
// every key in it a candidate for the next pass. v3 appends them with atomics, so they come out in
// whatever order the threads get there; here each tile of the input counts its winners and
// candidates, the tiles' counts become offsets (an exclusive prefix sum, which the harness
// computes), and each tile writes its keys' indices in input order from its offsets: a stable
// compaction, the same on every run. Write both kernels.
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

// counts[b]: the winners and candidates among tile b's keys, keys[b kTile, (b + 1) kTile) (the
// last tile ends at n). One block of kSiftThreads threads per tile.
__global__ void count_tiles(const Key* keys, std::size_t n, Key low, Key high, SiftCounts* counts) {
  // TODO: thread t looks at the tile's keys 4t to 4t + 3 (those below n), and the block adds up
  //   what its threads found (a __shared__ pair of counters and atomicAdd will do); thread 0
  //   writes counts[blockIdx.x].
  (void)keys;
  (void)n;
  (void)low;
  (void)high;
  (void)counts;
}

// Tile b writes the indices of its winners, in increasing order, to winners[offsets[b].winners
// ...], and those of its candidates to candidates[offsets[b].candidates ...]; offsets[b] holds the
// counts of the tiles before b, added up. One block of kSiftThreads threads per tile.
__global__ void scatter_tiles(const Key* keys, std::size_t n, Key low, Key high,
                              const SiftCounts* offsets, std::uint32_t* winners,
                              std::uint32_t* candidates) {
  // TODO: thread t counts the winners and candidates among its keys 4t to 4t + 3. An exclusive
  //   prefix sum of those counts over the block's threads, in thread order (shuffles within each
  //   warp, then the warps' totals in shared memory), says how many of the tile's winners and
  //   candidates come before thread t's. Then thread t writes its keys' indices, in order, from
  //   offsets[b] plus those. No atomics here: their order would be the threads' timing.
  (void)keys;
  (void)n;
  (void)low;
  (void)high;
  (void)offsets;
  (void)winners;
  (void)candidates;
}

}  // namespace exercise06
