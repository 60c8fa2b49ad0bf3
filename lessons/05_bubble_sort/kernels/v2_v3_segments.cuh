// v2, the source's exercise 2, and v3: many blocks, each sorting a segment of 2 * threads floats in
// shared memory, in launches that alternate between offset 0 and offset `threads`, driven from the
// host. v2 takes n a multiple of the segment; v3 pads the last segment and takes any n.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "../order.hpp"
#include "check.hpp"
#include "format.hpp"
#include "settings.cuh"

namespace lesson05 {

// Block b sorts the segment of 2 * blockDim.x elements that starts at offset + b * segment, by
// odd-even transposition in shared memory. kPad: places at n or past it read as the last float,
// and are not written back.
template <bool kPad>
__global__ void odd_even_segment_kernel(const float* in, float* out, std::size_t n,
                                        std::size_t offset) {
  extern __shared__ float s[];
  const unsigned segment = 2 * blockDim.x;
  const std::size_t base = offset + blockIdx.x * static_cast<std::size_t>(segment);
  for (unsigned i = threadIdx.x; i < segment; i += blockDim.x)
    s[i] = (!kPad || base + i < n) ? in[base + i] : last_float();
  __syncthreads();
  for (unsigned phase = 0; phase < segment; ++phase) {
    const unsigned i = 2 * threadIdx.x + (phase & 1u);
    if (i + 1 < segment) order_pair(s[i], s[i + 1]);
    __syncthreads();
  }
  for (unsigned i = threadIdx.x; i < segment; i += blockDim.x) {
    if (!kPad || base + i < n) out[base + i] = s[i];
  }
}

// One round sorts the segments at offset 0, then those at offset `threads` (half a segment). With
// m segments, m rounds are 2m phases of odd-even transposition over the 2m half-segments, each
// phase merging neighbours: enough, as n phases are for n single elements.
template <bool kPad>
void odd_even_rounds(const float* in, float* out, std::size_t n, const Launch& launch) {
  require_threads(launch);
  const std::size_t segment = 2 * static_cast<std::size_t>(launch.threads);
  const std::size_t segments = (n + segment - 1) / segment;
  const std::size_t bytes = segment * sizeof(float);
  for (std::size_t round = 0; round < segments; ++round) {
    odd_even_segment_kernel<kPad>
        <<<static_cast<unsigned>(segments), launch.threads, bytes, launch.stream>>>(
            round == 0 ? in : out, out, n, 0);
    CUDA_CHECK_LAUNCH();
    if (segments > 1) {
      odd_even_segment_kernel<kPad>
          <<<static_cast<unsigned>(segments - 1), launch.threads, bytes, launch.stream>>>(
              out, out, n, segment / 2);
      CUDA_CHECK_LAUNCH();
    }
  }
}

inline std::string v2_limit(std::size_t n, const Launch& launch) {
  const std::size_t segment = 2 * static_cast<std::size_t>(launch.threads);
  if (n % segment != 0) {
    return course::format("n must be a multiple of the segment, %zu (v3 takes any n)", segment);
  }
  return n <= kMultiBlockMaxN ? "" : "quadratic: n <= 2^21 (see --sweep)";
}

inline std::string v3_limit(std::size_t n, const Launch&) {
  return n <= kMultiBlockMaxN ? "" : "quadratic: n <= 2^21 (see --sweep)";
}

inline void sort_v2(const float* in, float* out, std::size_t n, const Launch& launch) {
  if (n % (2 * static_cast<std::size_t>(launch.threads)) != 0) {
    throw std::invalid_argument("v2: " + v2_limit(n, launch));
  }
  odd_even_rounds<false>(in, out, n, launch);
}

inline void sort_v3(const float* in, float* out, std::size_t n, const Launch& launch) {
  odd_even_rounds<true>(in, out, n, launch);
}

}  // namespace lesson05
