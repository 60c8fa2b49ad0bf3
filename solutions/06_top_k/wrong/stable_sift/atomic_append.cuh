// A wrong answer to exercise 4 (lesson 06): the scatter appends with atomics, as v3 does, from the
// tile's offsets. The counts are right and every index arrives, but in the order the threads got
// there, not in input order.
// expect: fails: in input order
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

__global__ void count_tiles(const Key* keys, std::size_t n, Key low, Key high, SiftCounts* counts) {
  __shared__ SiftCounts total;
  if (threadIdx.x == 0) total = {0, 0};
  __syncthreads();
  const std::size_t first = blockIdx.x * kTile + 4 * static_cast<std::size_t>(threadIdx.x);
  for (std::size_t i = first; i < first + 4 && i < n; ++i) {
    if (keys[i] > high) {
      atomicAdd(&total.winners, 1u);
    } else if (low <= keys[i]) {
      atomicAdd(&total.candidates, 1u);
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) counts[blockIdx.x] = total;
}

__global__ void scatter_tiles(const Key* keys, std::size_t n, Key low, Key high,
                              const SiftCounts* offsets, std::uint32_t* winners,
                              std::uint32_t* candidates) {
  __shared__ SiftCounts next;
  if (threadIdx.x == 0) next = offsets[blockIdx.x];
  __syncthreads();
  const std::size_t first = blockIdx.x * kTile + 4 * static_cast<std::size_t>(threadIdx.x);
  for (std::size_t i = first; i < first + 4 && i < n; ++i) {
    if (keys[i] > high) {
      winners[atomicAdd(&next.winners, 1u)] = static_cast<std::uint32_t>(i);
    } else if (low <= keys[i]) {
      candidates[atomicAdd(&next.candidates, 1u)] = static_cast<std::uint32_t>(i);
    }
  }
}

}  // namespace exercise06
