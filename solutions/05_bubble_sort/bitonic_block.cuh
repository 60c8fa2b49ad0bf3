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
  for (unsigned k = 2; k <= size; k *= 2) {
    for (unsigned q = threadIdx.x; q < size / 2; q += blockDim.x) {  // the flip
      const unsigned half = k / 2;
      const unsigned lo = ((q & ~(half - 1)) << 1) | (q & (half - 1));
      lesson05::order_pair(s[lo], s[lo ^ (k - 1)]);
    }
    __syncthreads();
    for (unsigned j = k / 4; j > 0; j /= 2) {  // the half-cleaners
      for (unsigned q = threadIdx.x; q < size / 2; q += blockDim.x) {
        const unsigned lo = ((q & ~(j - 1)) << 1) | (q & (j - 1));
        lesson05::order_pair(s[lo], s[lo + j]);
      }
      __syncthreads();
    }
  }
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
