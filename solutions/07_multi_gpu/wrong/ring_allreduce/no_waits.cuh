// A wrong answer to exercise 2 (lesson 07): the ring's steps, with no events between the ranks. A
// rank that runs ahead reads a neighbour's chunk before the neighbour has added into it.
// expect: fails: elements differ
#pragma once

#include <cstddef>

#include "ranks_support.cuh"  // exercise07::Ranks and ring_copy (grading/)

namespace exercise07 {

constexpr int kMaxRanks = 8;

__global__ void add_into(float* dst, const float* src, std::size_t count) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride)
    dst[i] += src[i];
}

// Where chunk c of n floats in g chunks starts (chunk g: n); the first n % g chunks get one more.
inline std::size_t chunk_start(std::size_t n, int g, int c) {
  const std::size_t base = n / static_cast<std::size_t>(g);
  const std::size_t extra = n % static_cast<std::size_t>(g);
  const auto i = static_cast<std::size_t>(c);
  return i * base + (i < extra ? i : extra);
}

inline void ring_allreduce(const Ranks& ranks, float* const* data, float* const* scratch,
                           std::size_t n) {
  const int g = ranks.count();
  if (g < 2) return;
  int previous = 0;
  cudaGetDevice(&previous);
  cudaEvent_t done[2 * (kMaxRanks - 1)][kMaxRanks];
  const int steps = 2 * (g - 1);
  for (int s = 0; s < steps; ++s) {
    const bool gather = s >= g - 1;
    const int k = gather ? s - (g - 1) : s;
    for (int r = 0; r < g; ++r) {
      cudaSetDevice(ranks.devices[r]);
      cudaEventCreateWithFlags(&done[s][r], cudaEventDisableTiming);
      const int left = (r + g - 1) % g;
      const int right = (r + 1) % g;
      const cudaStream_t stream = ranks.streams[r];
      (void)right;  // no waits: each rank runs its steps at its own pace
      // Reduce-scatter step k: chunk (r - 1 - k) mod g; all-gather step k: chunk (r - k) mod g.
      const int c = gather ? ((r - k) % g + g) % g : ((r - 1 - k) % g + 2 * g) % g;
      const std::size_t begin = chunk_start(n, g, c);
      const std::size_t count = chunk_start(n, g, c + 1) - begin;
      if (count > 0) {
        float* to = gather ? data[r] + begin : scratch[r];
        ring_copy(ranks, to, r, data[left] + begin, left, count, stream);
        if (!gather) add_into<<<256, 256, 0, stream>>>(data[r] + begin, scratch[r], count);
      }
      cudaEventRecord(done[s][r], stream);
    }
  }
  for (int s = 0; s < steps; ++s) {
    for (int r = 0; r < g; ++r) {
      cudaSetDevice(ranks.devices[r]);
      cudaEventDestroy(done[s][r]);  // released once the work it marks is done
    }
  }
  cudaSetDevice(previous);
}

}  // namespace exercise07
