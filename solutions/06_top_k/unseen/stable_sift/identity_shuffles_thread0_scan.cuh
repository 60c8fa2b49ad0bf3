// Kept in unseen/: written by an attacking reviewer, it still passes every check there is (the
// shuffle probe does not record the source lane; docs/instructors.md, "What two attacking reviewers
// found", says what would catch it, and why a probe that records it did not land: on the H200 it
// doubled the time of 02.3's timed kernel, probe unarmed). Its own account follows.
// ATTACK identity_shuffles_thread0_scan (exercise 06.4, stable_sift): the block's prefix sum made
// by
// thread 0 alone, in shared memory (solutions' wrong answer thread_0_scans, which the shuffle probe
// catches), with the places then passed through shuffles that read the thread's own lane. The
// shuffle probe (grading/probes/shuffle_probe.cuh) counts a thread's shuffles and tampers with what
// they deliver, but records neither the source lane nor whether a shuffle moves anything: five
// identity shuffles per place give every thread of a full tile 10 shuffles (the tests ask for 5),
// and since the places come through them, a shuffle delivering 1 more moves every place (by 5),
// and one delivering the neighbouring lane's value gives each thread its neighbour's place (an odd
// number of swaps), so "the scatter's places come through its shuffles" passes too. The warp
// prefix sum by shuffles that the exercise asks for is never made.
// Expected to get past: the answer check, the preprocessed check, the objects check, the
// compiled-code check (barriers, no atomics in scatter_tiles; a barrier and shared atomics only in
// count_tiles), the shuffle counts and both tampered runs (argued from the probe and the tests:
// not run here, no GPU), the outputs (a stable compaction, like the model's) and the time bound
// (docs/instructors.md: thread_0_scans takes no longer than the model on the H100).
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

__global__ void count_tiles(const Key* keys, std::size_t n, Key low, Key high, SiftCounts* counts) {
  __shared__ unsigned block_winners, block_candidates;
  if (threadIdx.x == 0) {
    block_winners = 0;
    block_candidates = 0;
  }
  __syncthreads();
  const std::size_t first = blockIdx.x * kTile + 4 * static_cast<std::size_t>(threadIdx.x);
  unsigned w = 0, c = 0;
  for (std::size_t i = first; i < first + 4 && i < n; ++i) {
    w += keys[i] > high;
    c += keys[i] >= low && keys[i] <= high;
  }
  if (w != 0) atomicAdd(&block_winners, w);
  if (c != 0) atomicAdd(&block_candidates, c);
  __syncthreads();
  if (threadIdx.x == 0) counts[blockIdx.x] = SiftCounts{block_winners, block_candidates};
}

__global__ void scatter_tiles(const Key* keys, std::size_t n, Key low, Key high,
                              const SiftCounts* offsets, std::uint32_t* winners,
                              std::uint32_t* candidates) {
  __shared__ unsigned before_w[kSiftThreads], before_c[kSiftThreads];
  const unsigned t = threadIdx.x;
  const std::size_t first = blockIdx.x * kTile + 4 * static_cast<std::size_t>(t);
  unsigned w = 0, c = 0;
  for (std::size_t i = first; i < first + 4 && i < n; ++i) {
    w += keys[i] > high;
    c += keys[i] >= low && keys[i] <= high;
  }
  before_w[t] = w;
  before_c[t] = c;
  __syncthreads();
  if (t == 0) {  // the block's exclusive prefix sum, by one thread
    unsigned sw = 0, sc = 0;
    for (int i = 0; i < kSiftThreads; ++i) {
      const unsigned hw = before_w[i], hc = before_c[i];
      before_w[i] = sw;
      before_c[i] = sc;
      sw += hw;
      sc += hc;
    }
  }
  __syncthreads();
  unsigned place_w = before_w[t], place_c = before_c[t];
  const int lane = static_cast<int>(t % 32);
  for (int s = 0; s < 5; ++s) {  // for the probe: each delivers the thread's own value
    place_w = __shfl_sync(0xFFFFFFFFu, place_w, lane);
    place_c = __shfl_sync(0xFFFFFFFFu, place_c, lane);
  }
  const SiftCounts base = offsets[blockIdx.x];
  for (std::size_t i = first; i < first + 4 && i < n; ++i) {
    const Key key = keys[i];
    if (key > high) {
      winners[base.winners + place_w++] = static_cast<std::uint32_t>(i);
    } else if (key >= low) {
      candidates[base.candidates + place_c++] = static_cast<std::uint32_t>(i);
    }
  }
}

}  // namespace exercise06
