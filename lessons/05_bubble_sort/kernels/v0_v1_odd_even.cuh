// v0, the source's kernel, and v1, the source's exercise 1: odd-even transposition in one block,
// the array in shared memory (v0) or in global memory (v1).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "../order.hpp"
#include "../reference.hpp"
#include "check.hpp"
#include "format.hpp"
#include "launch.hpp"
#include "settings.cuh"

namespace lesson05 {

// One block. The array goes into shared memory; phase p compares the pairs that start at even
// places (p even) or odd places (p odd), each thread taking every blockDim.x-th pair, and a barrier
// ends the phase. The source's count of phases, n/2 + 1 rounds of two (source_phases). A pair is
// compared only when both its places hold data: the source's last thread also reads s[N], past its
// data but inside its padded s[N+20], and its swap is guarded (k<N-2); here neither is needed.
// `before` is the comparison: the course's, or the source's (a < b, --source-compare).
template <typename Before>
__global__ void source_odd_even_kernel(const float* in, float* out, unsigned n, Before before) {
  extern __shared__ float s[];
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
    s[i] = in[i];
  __syncthreads();  // every element loaded before any thread compares it with its neighbour
  const unsigned phases = static_cast<unsigned>(source_phases(n));
  for (unsigned phase = 0; phase < phases; ++phase) {
    for (unsigned i = 2 * threadIdx.x + (phase & 1u); i + 1 < n; i += 2 * blockDim.x) {
      const float a = s[i];
      const float b = s[i + 1];
      if (before(b, a)) {
        s[i] = b;
        s[i + 1] = a;
      }
    }
    __syncthreads();
  }
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = s[i];
}

// v0 takes the n that fit in one block's shared memory.
inline std::string v0_limit(std::size_t n, const Launch&) {
  const std::size_t most = course::max_shared_bytes() / sizeof(float);
  return n <= most ? "" : course::format("one block's shared memory holds %zu floats", most);
}

template <typename Before = TotalOrder>
void odd_even_shared(const float* in, float* out, std::size_t n, const Launch& launch,
                     Before before = {}) {
  require_threads(launch);
  const std::string why = v0_limit(n, launch);
  if (!why.empty()) throw std::invalid_argument("v0: " + why);
  const std::size_t bytes = n * sizeof(float);
  course::allow_shared_bytes(source_odd_even_kernel<Before>, bytes);
  source_odd_even_kernel<<<1, launch.threads, bytes, launch.stream>>>(
      in, out, static_cast<unsigned>(n), before);
  CUDA_CHECK_LAUNCH();
}

inline void sort_v0(const float* in, float* out, std::size_t n, const Launch& launch) {
  odd_even_shared(in, out, n, launch);
}

// ---- v1: global memory ----

// v0 with the array in global memory: the block copies `in` to `out` and sorts `out` in place.
// __syncthreads() orders the block's global-memory accesses as it does its shared ones.
__global__ void odd_even_global_kernel(const float* in, float* out, std::size_t n) {
  for (std::size_t i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = in[i];
  __syncthreads();
  for (std::size_t phase = 0; phase < source_phases(n); ++phase) {
    for (std::size_t i = 2 * threadIdx.x + (phase & 1u); i + 1 < n; i += 2 * blockDim.x)
      order_pair(out[i], out[i + 1]);
    __syncthreads();
  }
}

inline std::string v1_limit(std::size_t n, const Launch&) {
  return n <= kOneBlockMaxN ? "" : "quadratic in one block: n <= 2^17 (see --sweep)";
}

inline void sort_v1(const float* in, float* out, std::size_t n, const Launch& launch) {
  require_threads(launch);
  odd_even_global_kernel<<<1, launch.threads, 0, launch.stream>>>(in, out, n);
  CUDA_CHECK_LAUNCH();
}

}  // namespace lesson05
