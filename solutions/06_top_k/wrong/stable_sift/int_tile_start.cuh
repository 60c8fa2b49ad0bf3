// An adversarial answer to exercise 4 (lesson 06): the model technique (counts per tile, a
// shuffle scan within each warp, the warps' totals in shared memory behind a barrier), with the
// place of a thread's first key held in an int: blockIdx.x * kTile + 4 t is narrowed to 32 signed
// bits. The indices the exercise writes are 32-bit unsigned, so inputs up to 2^32 keys are in its
// range; from 2^31 keys on, the tiles past the 2^21-th start at a negative place, compared with n
// as a huge size_t, and their keys are never counted or written. The tests' largest input is the
// timing case's 2^27 + 1023 keys, 16 times too few.
// How a correct grader should catch it: one sift of more than 2^31 keys (8 GiB on the device; the
// counts and a sample of the output checked), as the statement's 32-bit indices allow.
// expect: fails: FAILED:|did not finish in [0-9]+ s
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
  __shared__ unsigned warp_w[kSiftThreads / 32];
  __shared__ unsigned warp_c[kSiftThreads / 32];
  const int first = blockIdx.x * kTile + 4 * threadIdx.x;
  unsigned w = 0;
  unsigned c = 0;
  for (int j = 0; j < 4; ++j) {
    if (first + j < n) {
      const Key key = keys[first + j];
      w += key > high;
      c += key >= low && key <= high;
    }
  }
  for (int d = 16; d > 0; d /= 2) {
    w += __shfl_down_sync(0xFFFFFFFFu, w, d);
    c += __shfl_down_sync(0xFFFFFFFFu, c, d);
  }
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  if (lane == 0) {
    warp_w[warp] = w;
    warp_c[warp] = c;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    SiftCounts total{0, 0};
    for (int i = 0; i < kSiftThreads / 32; ++i) {
      total.winners += warp_w[i];
      total.candidates += warp_c[i];
    }
    counts[blockIdx.x] = total;
  }
}

__global__ void scatter_tiles(const Key* keys, std::size_t n, Key low, Key high,
                              const SiftCounts* offsets, std::uint32_t* winners,
                              std::uint32_t* candidates) {
  __shared__ unsigned warp_w[kSiftThreads / 32];
  __shared__ unsigned warp_c[kSiftThreads / 32];
  const int first = blockIdx.x * kTile + 4 * threadIdx.x;
  Key mine[4];
  unsigned w = 0;
  unsigned c = 0;
  for (int j = 0; j < 4; ++j) {
    mine[j] = 0;
    if (first + j < n) {
      mine[j] = keys[first + j];
      w += mine[j] > high;
      c += mine[j] >= low && mine[j] <= high;
    }
  }
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  unsigned sw = w;  // inclusive scan within the warp
  unsigned sc = c;
  for (int d = 1; d < 32; d *= 2) {
    const unsigned up_w = __shfl_up_sync(0xFFFFFFFFu, sw, d);
    const unsigned up_c = __shfl_up_sync(0xFFFFFFFFu, sc, d);
    if (lane >= d) {
      sw += up_w;
      sc += up_c;
    }
  }
  if (lane == 31) {
    warp_w[warp] = sw;
    warp_c[warp] = sc;
  }
  __syncthreads();
  unsigned before_w = sw - w;
  unsigned before_c = sc - c;
  for (int i = 0; i < warp; ++i) {
    before_w += warp_w[i];
    before_c += warp_c[i];
  }
  unsigned at_w = offsets[blockIdx.x].winners + before_w;
  unsigned at_c = offsets[blockIdx.x].candidates + before_c;
  for (int j = 0; j < 4; ++j) {
    if (first + j < n) {
      if (mine[j] > high) {
        winners[at_w++] = static_cast<std::uint32_t>(first + j);
      } else if (mine[j] >= low) {
        candidates[at_c++] = static_cast<std::uint32_t>(first + j);
      }
    }
  }
}

}  // namespace exercise06
