// A wrong answer to exercise 2 (lesson 07): no events; instead each add kernel waits on the GPU
// until its chunk "has arrived" (the scratch no longer holds a marker). But the copy that brings
// the chunk is enqueued after the kernel on the same stream, so it starts only once the kernel
// ends, and the kernel never ends. The watchdog stops the test within seconds.
// expect: hangs
#pragma once

#include <cstddef>

#include "ranks_support.cuh"  // exercise07::Ranks and ring_copy (grading/)

namespace exercise07 {

constexpr unsigned kMarker = 0x7fc0dead;  // a NaN: no sum of whole numbers has these bits

__global__ void mark(float* scratch) {
  *reinterpret_cast<unsigned*>(scratch) = kMarker;
}

__global__ void add_when_arrived(float* dst, const float* src, std::size_t count) {
  const volatile unsigned* first = reinterpret_cast<const volatile unsigned*>(src);
  while (*first == kMarker)
    __nanosleep(1000);
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
  for (int s = 0; s < 2 * (g - 1); ++s) {
    const bool gather = s >= g - 1;
    const int k = gather ? s - (g - 1) : s;
    for (int r = 0; r < g; ++r) {
      cudaSetDevice(ranks.devices[r]);
      const int left = (r + g - 1) % g;
      const cudaStream_t stream = ranks.streams[r];
      const int c = gather ? ((r - k) % g + g) % g : ((r - 1 - k) % g + 2 * g) % g;
      const std::size_t begin = chunk_start(n, g, c);
      const std::size_t count = chunk_start(n, g, c + 1) - begin;
      if (count == 0) continue;
      if (gather) {
        ring_copy(ranks, data[r] + begin, r, data[left] + begin, left, count, stream);
      } else {
        mark<<<1, 1, 0, stream>>>(scratch[r]);
        add_when_arrived<<<256, 256, 0, stream>>>(data[r] + begin, scratch[r], count);
        ring_copy(ranks, scratch[r], r, data[left] + begin, left, count, stream);
      }
    }
  }
  cudaSetDevice(previous);
}

}  // namespace exercise07
