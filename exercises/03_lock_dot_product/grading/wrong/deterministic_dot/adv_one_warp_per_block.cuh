// An adversarial answer to exercise 2 (lesson 03): the blocks' other warps skipped, cheaply. Each
// chunk is added by warp 0 of its block alone, with 16-byte loads and eight of them in flight per
// lane; warps 1 to 7 only take part in block_sum (with zeros), so the barrier is there. Every
// partial sum depends on its chunk alone (lane l adds float4s l, l + 32, ... of the chunk, four
// accumulators, then a fixed tree), so the bits are the same on any grid, and four accumulators of
// 32 products each stay far inside the error bound. The statement says every thread of a block must
// work, and the timing is meant to show it; but a quarter of the warps... an eighth, with wide
// loads, still keeps some 16 KiB in flight per SM at 4 blocks per SM: near the model answer's
// bandwidth, well inside 5 times.
// expect: slow
#pragma once

#include <cstddef>

#include "deterministic_dot_support.cuh"

namespace exercise03 {

constexpr std::size_t kChunk = 4096;
constexpr int kThreads = 256;

__global__ void __launch_bounds__(256, 4)
    chunk_dots(const float* a, const float* b, std::size_t n, float* partials) {
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  const unsigned lane = threadIdx.x;
  for (std::size_t c = blockIdx.x; c < chunks; c += gridDim.x) {
    const std::size_t begin = c * kChunk;
    const std::size_t end = begin + kChunk < n ? begin + kChunk : n;
    float sum = 0.0f;
    if (threadIdx.x < 32) {
      float4 acc = make_float4(0.f, 0.f, 0.f, 0.f);
      if (end - begin == kChunk) {
        const float4* a4 = reinterpret_cast<const float4*>(a + begin);
        const float4* b4 = reinterpret_cast<const float4*>(b + begin);
        for (int batch = 0; batch < 4; ++batch) {
          float4 va[8];
          float4 vb[8];
#pragma unroll
          for (int u = 0; u < 8; ++u) {
            va[u] = a4[(batch * 8 + u) * 32 + lane];
            vb[u] = b4[(batch * 8 + u) * 32 + lane];
          }
#pragma unroll
          for (int u = 0; u < 8; ++u) {
            acc.x += va[u].x * vb[u].x;
            acc.y += va[u].y * vb[u].y;
            acc.z += va[u].z * vb[u].z;
            acc.w += va[u].w * vb[u].w;
          }
        }
      } else {  // the short last chunk: the same four lanes of accumulators, element by element
        for (std::size_t i = begin + 4 * lane; i < end; i += 128) {
          if (i < end) acc.x += a[i] * b[i];
          if (i + 1 < end) acc.y += a[i + 1] * b[i + 1];
          if (i + 2 < end) acc.z += a[i + 2] * b[i + 2];
          if (i + 3 < end) acc.w += a[i + 3] * b[i + 3];
        }
      }
      sum = (acc.x + acc.y) + (acc.z + acc.w);
    }
    sum = block_sum(sum);
    if (threadIdx.x == 0) partials[c] = sum;
    __syncthreads();
  }
}

__global__ void add_partials(const float* partials, std::size_t chunks, float* result) {
  float sum = 0.0f;
  for (std::size_t i = threadIdx.x; i < chunks; i += kThreads)
    sum += partials[i];
  sum = block_sum(sum);
  if (threadIdx.x == 0) *result = sum;
}

}  // namespace exercise03
