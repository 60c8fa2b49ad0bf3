// A wrong answer to exercise 4 (lesson 06): an off-by-one at the tiles' edges. Each thread looks at
// five keys, 4t to 4t + 4, so the last thread of a tile counts the first key of the next tile too,
// and that key is counted, and written, twice.
// expect: fails: each tile's counts
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
  for (std::size_t i = first; i <= first + 4 && i < n; ++i) {
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
  atomicAdd(&total.winners, mine.winners);
  atomicAdd(&total.candidates, mine.candidates);
  __syncthreads();
  if (threadIdx.x == 0) counts[blockIdx.x] = total;
}

__global__ void scatter_tiles(const Key* keys, std::size_t n, Key low, Key high,
                              const SiftCounts* offsets, std::uint32_t* winners,
                              std::uint32_t* candidates) {
  (void)keys;
  (void)n;
  (void)low;
  (void)high;
  (void)offsets;
  (void)winners;
  (void)candidates;
}

}  // namespace exercise06
