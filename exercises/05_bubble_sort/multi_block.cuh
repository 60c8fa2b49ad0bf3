// Exercise 2 (lesson 05): the seed's exercise 2, odd-even sort with many blocks. Block b sorts the
// segment of 2 * threads floats that starts at offset + b * segment, in shared memory (the
// phases are given); the host alternates launches at offset 0 and at offset `threads`. First
// make it right for any n that is a multiple of the segment, then for any n.
#pragma once

#include <cstddef>
#include <stdexcept>

#include "check.hpp"
#include "reference.hpp"  // lesson05::order_pair, lesson05::last_float

namespace exercise05 {

__global__ void segment_kernel(const float* in, float* out, std::size_t n, std::size_t offset) {
  extern __shared__ float s[];
  const unsigned segment = 2 * blockDim.x;
  const std::size_t base = offset + blockIdx.x * static_cast<std::size_t>(segment);
  for (unsigned i = threadIdx.x; i < segment; i += blockDim.x) {
    // TODO (any n): a place at n or past it must sort after every real value, and 0.0f does not.
    //   Which float comes last in the course's order? (reference.hpp)
    s[i] = base + i < n ? in[base + i] : 0.0f;
  }
  __syncthreads();
  for (unsigned phase = 0; phase < segment; ++phase) {
    const unsigned i = 2 * threadIdx.x + (phase & 1u);
    if (i + 1 < segment) lesson05::order_pair(s[i], s[i + 1]);
    __syncthreads();
  }
  for (unsigned i = threadIdx.x; i < segment; i += blockDim.x) {
    if (base + i < n) out[base + i] = s[i];
  }
}

// Sorts the n floats at d_in into d_out (both device memory) with blocks of `threads` threads (a
// multiple of 32, at most 1024), each sorting a segment of 2 * threads floats.
inline void sort_multi_block(const float* d_in, float* d_out, std::size_t n, int threads = 256) {
  if (threads < 32 || threads > 1024 || threads % 32 != 0) {
    throw std::invalid_argument("threads must be a multiple of 32 from 32 to 1024");
  }
  const std::size_t segment = 2 * static_cast<std::size_t>(threads);
  const std::size_t segments = (n + segment - 1) / segment;
  const std::size_t bytes = segment * sizeof(float);
  // One launch sorts each segment on its own; nothing yet moves a value from one segment to the
  // next.
  segment_kernel<<<static_cast<unsigned>(segments), threads, bytes>>>(d_in, d_out, n, 0);
  CUDA_CHECK_LAUNCH();
  // TODO: rounds. Each round is a launch at offset 0 and one at offset `threads` (half a segment:
  //   one block fewer). How many rounds does it take, for `segments` segments, until a value can
  //   have crossed every segment? (The seed: 10 rounds for 10 segments.) Only the very first
  //   launch reads d_in; every later one sorts d_out in place.
  CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace exercise05
