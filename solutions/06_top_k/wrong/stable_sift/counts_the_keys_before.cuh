// A wrong answer to exercise 4 (lesson 06): no prefix sum. Each thread of the scatter finds how
// many winners and candidates come before its keys by reading all the tile's keys before its own
// again, up to 1020 of them, where an exclusive prefix sum over the block gives the same from the
// threads' counts. The places and the order are right, so the old tests passed it; the compiled
// scatter has no barrier, which any sum over a block's threads needs.
// expect: compiled: scatter_tiles lacks a barrier
#pragma once

#include <cstddef>
#include <cstdint>

#include "keys_support.cuh"

namespace exercise06 {

constexpr int kSiftThreads = 256;
constexpr std::size_t kTile = 4 * kSiftThreads;

struct SiftCounts {
  unsigned winners;
  unsigned candidates;
};

__device__ inline SiftCounts count_range(const Key* keys, std::size_t first, std::size_t last,
                                         std::size_t n, Key low, Key high) {
  SiftCounts found{0, 0};
  for (std::size_t i = first; i < last && i < n; ++i) {
    found.winners += keys[i] > high;
    found.candidates += low <= keys[i] && keys[i] <= high;
  }
  return found;
}

__global__ void count_tiles(const Key* keys, std::size_t n, Key low, Key high, SiftCounts* counts) {
  __shared__ SiftCounts total;
  if (threadIdx.x == 0) total = {0, 0};
  __syncthreads();
  const std::size_t first = blockIdx.x * kTile + 4 * static_cast<std::size_t>(threadIdx.x);
  const SiftCounts mine = count_range(keys, first, first + 4, n, low, high);
  if (mine.winners != 0) atomicAdd(&total.winners, mine.winners);
  if (mine.candidates != 0) atomicAdd(&total.candidates, mine.candidates);
  __syncthreads();
  if (threadIdx.x == 0) counts[blockIdx.x] = total;
}

__global__ void scatter_tiles(const Key* keys, std::size_t n, Key low, Key high,
                              const SiftCounts* offsets, std::uint32_t* winners,
                              std::uint32_t* candidates) {
  const std::size_t tile = blockIdx.x * kTile;
  const std::size_t first = tile + 4 * static_cast<std::size_t>(threadIdx.x);
  const SiftCounts before = count_range(keys, tile, first, n, low, high);
  std::size_t w = offsets[blockIdx.x].winners + before.winners;
  std::size_t c = offsets[blockIdx.x].candidates + before.candidates;
  for (std::size_t i = first; i < first + 4 && i < n; ++i) {
    if (keys[i] > high) {
      winners[w++] = static_cast<std::uint32_t>(i);
    } else if (low <= keys[i]) {
      candidates[c++] = static_cast<std::uint32_t>(i);
    }
  }
}

}  // namespace exercise06
