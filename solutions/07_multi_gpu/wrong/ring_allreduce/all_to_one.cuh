// A wrong answer to exercise 2 (lesson 07): every vector through rank 0. The sums are right, but
// it is not a ring: rank 0's links carry (G - 1) whole vectors each way.
// expect: fails: only to the right neighbour
#pragma once

#include <cstddef>

#include "ranks_support.cuh"  // exercise07::Ranks and ring_copy (grading/)

namespace exercise07 {

__global__ void add_into(float* dst, const float* src, std::size_t count) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride)
    dst[i] += src[i];
}

// Rank 0 pulls every other rank's vector, a chunk at a time, adds it into its own, then sends the
// sum back to each: right sums, everything through one GPU, on rank 0's stream alone.
inline void ring_allreduce(const Ranks& ranks, float* const* data, float* const* scratch,
                           std::size_t n) {
  const int g = ranks.count();
  if (g < 2) return;
  const std::size_t chunk = (n + g - 1) / g;
  int previous = 0;
  cudaGetDevice(&previous);
  cudaSetDevice(ranks.devices[0]);
  const cudaStream_t stream = ranks.streams[0];
  for (int r = 1; r < g; ++r) {
    for (std::size_t at = 0; at < n; at += chunk) {
      const std::size_t count = n - at < chunk ? n - at : chunk;
      ring_copy(ranks, scratch[0], 0, data[r] + at, r, count, stream);
      add_into<<<256, 256, 0, stream>>>(data[0] + at, scratch[0], count);
    }
  }
  for (int r = 1; r < g; ++r) {
    for (std::size_t at = 0; at < n; at += chunk) {
      const std::size_t count = n - at < chunk ? n - at : chunk;
      ring_copy(ranks, data[r] + at, r, data[0] + at, 0, count, stream);
    }
  }
  // The other ranks' streams must not go on before the sums have arrived.
  cudaEvent_t sent;
  cudaEventCreateWithFlags(&sent, cudaEventDisableTiming);
  cudaEventRecord(sent, stream);
  for (int r = 1; r < g; ++r)
    cudaStreamWaitEvent(ranks.streams[r], sent, 0);
  cudaEventDestroy(sent);
  cudaSetDevice(previous);
}

}  // namespace exercise07
