// A wrong answer to exercise 4 (lesson 06), after thread_0_scans was caught by the shuffle
// count: the same scatter, thread 0 alone turning the block's 256 packed counts into prefix sums in
// shared memory, with shuffles added for show. Each thread first runs a warp scan by
// __shfl_up_sync of its packed count, five rounds, as the exercise asks, and throws the result
// away (it lands in a volatile local that nothing reads back into a place). The probe counts five
// shuffles a lane; the places come from thread 0's walk.
// Caught: with every shuffle delivering 1 more than it should, the places do not change.
// expect: fails: places were the same
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
  const unsigned mine = (found.winners << 16) | found.candidates;
  unsigned scanned = mine;
  for (unsigned offset = 1; offset < 32; offset *= 2) {
    const unsigned below = __shfl_up_sync(0xFFFFFFFFu, scanned, offset);
    if (threadIdx.x % 32 >= offset) scanned += below;
  }
  volatile unsigned shown = scanned;  // for show: never used for a place
  (void)shown;
  packed[threadIdx.x] = mine;
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
