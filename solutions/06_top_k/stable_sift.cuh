// Exercise 4 (lesson 06), solved: per tile, counts; then each thread's place among the tile's
// winners and candidates from an exclusive prefix sum over the block, and the indices written in
// order.
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

// What thread t of tile b finds among its four keys, 4t to 4t + 3 of the tile.
__device__ inline SiftCounts count_mine(const Key* keys, std::size_t n, Key low, Key high) {
  const std::size_t first = blockIdx.x * kTile + 4 * static_cast<std::size_t>(threadIdx.x);
  SiftCounts mine{0, 0};
  for (std::size_t i = first; i < first + 4 && i < n; ++i) {
    mine.winners += keys[i] > high;
    mine.candidates += low <= keys[i] && keys[i] <= high;
  }
  return mine;
}

// counts[b]: the winners and candidates among tile b's keys, keys[b kTile, (b + 1) kTile) (the
// last tile ends at n). One block of kSiftThreads threads per tile.
__global__ void count_tiles(const Key* keys, std::size_t n, Key low, Key high, SiftCounts* counts) {
  __shared__ SiftCounts total;
  if (threadIdx.x == 0) total = {0, 0};
  __syncthreads();  // zeroed before any thread adds
  const SiftCounts mine = count_mine(keys, n, low, high);
  if (mine.winners != 0) atomicAdd(&total.winners, mine.winners);
  if (mine.candidates != 0) atomicAdd(&total.candidates, mine.candidates);
  __syncthreads();  // every thread has added
  if (threadIdx.x == 0) counts[blockIdx.x] = total;
}

// The sum of v over the threads before this one in the block (an exclusive prefix sum), in thread
// order. Both counts travel in one 64-bit word: winners in the high half, candidates in the low.
__device__ inline unsigned long long exclusive_sum(unsigned long long v) {
  __shared__ unsigned long long warp_totals[kSiftThreads / 32];
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  unsigned long long inclusive = v;
  for (unsigned offset = 1; offset < 32; offset *= 2) {
    const unsigned long long below = __shfl_up_sync(0xFFFFFFFFu, inclusive, offset);
    if (lane >= offset) inclusive += below;
  }
  if (lane == 31) warp_totals[warp] = inclusive;
  __syncthreads();  // every warp's total is in
  unsigned long long before = inclusive - v;
  for (unsigned w = 0; w < warp; ++w)
    before += warp_totals[w];  // the warps before this one (eight warps at most: a short loop)
  return before;
}

// Tile b writes the indices of its winners, in increasing order, to winners[offsets[b].winners
// ...], and those of its candidates to candidates[offsets[b].candidates ...]; offsets[b] holds the
// counts of the tiles before b, added up. One block of kSiftThreads threads per tile.
__global__ void scatter_tiles(const Key* keys, std::size_t n, Key low, Key high,
                              const SiftCounts* offsets, std::uint32_t* winners,
                              std::uint32_t* candidates) {
  const SiftCounts mine = count_mine(keys, n, low, high);
  const unsigned long long before =
      exclusive_sum((static_cast<unsigned long long>(mine.winners) << 32) | mine.candidates);
  std::size_t w = offsets[blockIdx.x].winners + (before >> 32);
  std::size_t c = offsets[blockIdx.x].candidates + (before & 0xFFFFFFFFull);
  const std::size_t first = blockIdx.x * kTile + 4 * static_cast<std::size_t>(threadIdx.x);
  for (std::size_t i = first; i < first + 4 && i < n; ++i) {
    if (keys[i] > high) {
      winners[w++] = static_cast<std::uint32_t>(i);
    } else if (low <= keys[i]) {
      candidates[c++] = static_cast<std::uint32_t>(i);
    }
  }
}

}  // namespace exercise06
