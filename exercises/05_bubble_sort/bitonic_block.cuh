// Exercise 4 (lesson 05, advanced): bitonic sort of one block in shared memory. Write the network;
// the kernel that loads the block's floats (padded with the last float up to a power of two) and
// stores them back is given.
#pragma once

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "check.hpp"
#include "reference.hpp"  // lesson05::order_pair, lesson05::last_float

namespace exercise05 {

// Sorts s[0, size) in the course's order; size is a power of two, and every thread of the block
// calls this.
__device__ void bitonic_sort_shared(float* s, unsigned size) {
  // TODO: stages k = 2, 4, ..., size. Stage k:
  //   - the flip: in every block of k places, compare place x of the lower half with its mirror
  //     x ^ (k - 1) in the upper half;
  //   - then the half-cleaners j = k / 4, k / 8, ..., 1: compare x with x + j, for every x whose
  //     bit j is 0.
  //   Each step has size / 2 pairs: let thread t take pairs t, t + blockDim.x, ..., find the
  //   lower place of pair q (for pairs j apart: ((q & ~(j - 1)) << 1) | (q & (j - 1))), and put
  //   the two in order with lesson05::order_pair. A barrier ends every step.
  (void)s;
  (void)size;
}

constexpr std::size_t kBitonicBlockMax = 8192;

__global__ void bitonic_block_kernel(const float* in, float* out, std::size_t n, unsigned size) {
  extern __shared__ float s[];
  for (unsigned i = threadIdx.x; i < size; i += blockDim.x)
    s[i] = i < n ? in[i] : lesson05::last_float();
  __syncthreads();
  bitonic_sort_shared(s, size);
  __syncthreads();
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = s[i];
}

// Sorts the n floats at d_in (1 <= n <= 8192) into d_out (both device memory) with one block.
inline void sort_bitonic_block(const float* d_in, float* d_out, std::size_t n) {
  if (n < 1 || n > kBitonicBlockMax) throw std::invalid_argument("n must be 1 to 8192");
  unsigned size = 1;
  while (size < n)
    size *= 2;
  const unsigned threads = std::max(32u, std::min(1024u, size / 2));
  bitonic_block_kernel<<<1, threads, size * sizeof(float)>>>(d_in, d_out, n, size);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace exercise05
