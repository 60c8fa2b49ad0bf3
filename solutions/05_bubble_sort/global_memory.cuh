// Exercise 1 (lesson 05): the seed's exercise 1, odd-even transposition sort in global memory.
// One block sorts the whole array: it copies `in` to `out` (given), then runs the phases on `out`.
#pragma once

#include <cstddef>
#include <stdexcept>

#include "check.hpp"
#include "reference.hpp"  // lesson05::order_pair: puts two floats in the course's order

namespace exercise05 {

__global__ void odd_even_global_kernel(const float* in, float* out, std::size_t n) {
  for (std::size_t i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = in[i];
  __syncthreads();
  for (std::size_t phase = 0; phase < n; ++phase) {
    for (std::size_t i = 2 * threadIdx.x + (phase & 1u); i + 1 < n; i += 2 * blockDim.x)
      lesson05::order_pair(out[i], out[i + 1]);
    __syncthreads();  // the whole block finishes phase p before any thread starts p + 1
  }
}

// Sorts the n floats at d_in into d_out (both device memory), with one block of `threads`
// threads (a multiple of 32, at most 1024).
inline void sort_global_memory(const float* d_in, float* d_out, std::size_t n, int threads = 256) {
  if (threads < 32 || threads > 1024 || threads % 32 != 0) {
    throw std::invalid_argument("threads must be a multiple of 32 from 32 to 1024");
  }
  odd_even_global_kernel<<<1, threads>>>(d_in, d_out, n);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace exercise05
