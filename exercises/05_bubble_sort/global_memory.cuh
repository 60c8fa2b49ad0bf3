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
  // TODO: n phases. Phase p compares the pairs (i, i + 1) that start at i = p % 2, p % 2 + 2,
  //   p % 2 + 4, ... (while i + 1 < n): thread t takes the pairs that start at
  //   p % 2 + 2t, then every 2 * blockDim.x places after that, and puts each pair in order with
  //   lesson05::order_pair(out[i], out[i + 1]). Every thread must finish a phase before any
  //   starts the next: what makes the block wait?
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
