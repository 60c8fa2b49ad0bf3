// A wrong answer to exercise 4 (lesson 06): the scatter places its indices with atomics after all,
// spelt as cuda::atomic_ref on two shared counters, and the block's threads take turns, one after
// the other with a barrier between, so the places come out in input order, the same on every run.
// The old tests passed it (the atomics were never refused by name, and the order is right); the
// compiled scatter has atomics, which a place from the prefix sum does not need.
// expect: compiled: scatter_tiles has an atomic
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda/atomic>

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
  __shared__ unsigned next_winner;
  __shared__ unsigned next_candidate;
  if (threadIdx.x == 0) {
    next_winner = offsets[blockIdx.x].winners;
    next_candidate = offsets[blockIdx.x].candidates;
  }
  __syncthreads();
  cuda::atomic_ref<unsigned, cuda::thread_scope_block> w(next_winner);
  cuda::atomic_ref<unsigned, cuda::thread_scope_block> c(next_candidate);
  const std::size_t first = blockIdx.x * kTile + 4 * static_cast<std::size_t>(threadIdx.x);
  for (int turn = 0; turn < kSiftThreads; ++turn) {
    if (static_cast<int>(threadIdx.x) == turn) {
      for (std::size_t i = first; i < first + 4 && i < n; ++i) {
        if (keys[i] > high) {
          winners[w.fetch_add(1u)] = static_cast<std::uint32_t>(i);
        } else if (low <= keys[i]) {
          candidates[c.fetch_add(1u)] = static_cast<std::uint32_t>(i);
        }
      }
    }
    __syncthreads();
  }
}

}  // namespace exercise06
