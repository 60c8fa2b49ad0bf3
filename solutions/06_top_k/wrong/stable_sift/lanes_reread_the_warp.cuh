// An adversarial answer to exercise 4 (lesson 06): half the prefix sum skipped. Within each warp
// there is no scan: lane l reads again the keys of lanes 0 to l - 1 (up to 31 groups of four,
// each one 16-byte load that every active lane of the warp makes at the same address, so an L1
// broadcast) and counts their winners and candidates itself; only the warps' totals go through
// shared memory, behind the barrier the compiled-code rule asks for. No atomics; places, order and
// counts are all right. The extra work is some 31 broadcast loads and 250 simple instructions a
// warp, about 5 x 10^8 warp instructions at 2^27 keys, spread over every SM and hidden in part
// behind the keys' read: estimated at 1.2 to 1.6 times the model answer's whole sift; on an H100 it
// measured 2.98 times (docs/results/h100-80gb-hbm3/grade_adversarial_0995f68.txt), inside the
// bound of 3 the exercise had then. The bound is now 2, and the clock catches it.
// expect: slow
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

// The winners and candidates among keys[first, first + 4) below n.
__device__ inline void count_four(const Key* keys, std::size_t n, std::size_t first, Key low,
                                  Key high, unsigned& w, unsigned& c) {
  if (first + 4 <= n) {
    const uint4 q = *reinterpret_cast<const uint4*>(keys + first);
    w += (q.x > high) + (q.y > high) + (q.z > high) + (q.w > high);
    c += (q.x >= low && q.x <= high) + (q.y >= low && q.y <= high) + (q.z >= low && q.z <= high) +
         (q.w >= low && q.w <= high);
  } else {
    for (std::size_t i = first; i < n && i < first + 4; ++i) {
      w += keys[i] > high;
      c += keys[i] >= low && keys[i] <= high;
    }
  }
}

__global__ void count_tiles(const Key* keys, std::size_t n, Key low, Key high, SiftCounts* counts) {
  __shared__ unsigned tile_w;
  __shared__ unsigned tile_c;
  if (threadIdx.x == 0) {
    tile_w = 0;
    tile_c = 0;
  }
  __syncthreads();
  unsigned w = 0;
  unsigned c = 0;
  count_four(keys, n, blockIdx.x * kTile + 4 * threadIdx.x, low, high, w, c);
  if (w != 0) atomicAdd(&tile_w, w);
  if (c != 0) atomicAdd(&tile_c, c);
  __syncthreads();
  if (threadIdx.x == 0) counts[blockIdx.x] = SiftCounts{tile_w, tile_c};
}

__global__ void scatter_tiles(const Key* keys, std::size_t n, Key low, Key high,
                              const SiftCounts* offsets, std::uint32_t* winners,
                              std::uint32_t* candidates) {
  __shared__ unsigned warp_w[kSiftThreads / 32];
  __shared__ unsigned warp_c[kSiftThreads / 32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  const std::size_t tile = blockIdx.x * kTile;
  const std::size_t warp_first = tile + 128 * static_cast<std::size_t>(warp);
  // The lanes before this one, read again.
  unsigned before_w = 0;
  unsigned before_c = 0;
  for (int l = 0; l < lane; ++l)
    count_four(keys, n, warp_first + 4 * l, low, high, before_w, before_c);
  unsigned w = 0;
  unsigned c = 0;
  const std::size_t first = warp_first + 4 * lane;
  count_four(keys, n, first, low, high, w, c);
  if (lane == 31) {
    warp_w[warp] = before_w + w;
    warp_c[warp] = before_c + c;
  }
  __syncthreads();
  for (int i = 0; i < warp; ++i) {
    before_w += warp_w[i];
    before_c += warp_c[i];
  }
  unsigned at_w = offsets[blockIdx.x].winners + before_w;
  unsigned at_c = offsets[blockIdx.x].candidates + before_c;
  for (std::size_t i = first; i < n && i < first + 4; ++i) {
    const Key key = keys[i];
    if (key > high) {
      winners[at_w++] = static_cast<std::uint32_t>(i);
    } else if (key >= low) {
      candidates[at_c++] = static_cast<std::uint32_t>(i);
    }
  }
}

}  // namespace exercise06
