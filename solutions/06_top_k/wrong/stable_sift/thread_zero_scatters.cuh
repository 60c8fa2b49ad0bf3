// A wrong answer to exercise 4 (lesson 06): the technique skipped where only speed shows it. The
// scatter's thread 0 walks its tile's 1024 keys in a row and writes every index itself, after a
// barrier that the rest of the block waits at. Places, order and counts are all right, and the
// compiled code has the barrier and no atomic; one thread reading 1024 keys one after the other
// takes several times as long as 256 threads with a prefix sum.
// expect: slow
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

__device__ inline SiftCounts count_mine(const Key* keys, std::size_t n, Key low, Key high) {
  const std::size_t first = blockIdx.x * kTile + 4 * static_cast<std::size_t>(threadIdx.x);
  SiftCounts mine{0, 0};
  for (std::size_t i = first; i < first + 4 && i < n; ++i) {
    mine.winners += keys[i] > high;
    mine.candidates += low <= keys[i] && keys[i] <= high;
  }
  return mine;
}

__global__ void count_tiles(const Key* keys, std::size_t n, Key low, Key high, SiftCounts* counts) {
  __shared__ SiftCounts total;
  if (threadIdx.x == 0) total = {0, 0};
  __syncthreads();
  const SiftCounts mine = count_mine(keys, n, low, high);
  if (mine.winners != 0) atomicAdd(&total.winners, mine.winners);
  if (mine.candidates != 0) atomicAdd(&total.candidates, mine.candidates);
  __syncthreads();
  if (threadIdx.x == 0) counts[blockIdx.x] = total;
}

__global__ void scatter_tiles(const Key* keys, std::size_t n, Key low, Key high,
                              const SiftCounts* offsets, std::uint32_t* winners,
                              std::uint32_t* candidates) {
  __shared__ SiftCounts next;
  if (threadIdx.x == 0) next = offsets[blockIdx.x];
  __syncthreads();
  if (threadIdx.x != 0) return;
  const std::size_t tile = blockIdx.x * kTile;
  for (std::size_t i = tile; i < tile + kTile && i < n; ++i) {
    if (keys[i] > high) {
      winners[next.winners++] = static_cast<std::uint32_t>(i);
    } else if (low <= keys[i]) {
      candidates[next.candidates++] = static_cast<std::uint32_t>(i);
    }
  }
}

}  // namespace exercise06
