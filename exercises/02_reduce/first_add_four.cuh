// Exercise 1 (lesson 02): Harris's first add during the load, taken further: v3 adds two elements
// during the load; here each thread adds four, a block apart, before the tree in shared memory.
// Write the kernel; the harness runs it in passes, on its own block sums, until one value is left.
#pragma once

#include <cstddef>

namespace exercise02 {

constexpr int kFirstAddThreads = 256;
constexpr int kLoadsPerThread = 4;

// Writes to block_sums[blockIdx.x] the sum of the kLoadsPerThread * blockDim.x elements of
// in[0, n) that start at blockIdx.x * kLoadsPerThread * blockDim.x (elements past n count as
// zero). blockDim.x == kFirstAddThreads. T is any type with + and +=, whose zero is T(0): the
// tests run it on int, on float, and on a type that counts the additions on the way to each sum.
template <typename T>
__global__ void first_add_kernel(const T* in, std::size_t n, T* block_sums) {
  // TODO:
  //   1. thread t adds the elements first + j * blockDim.x, j = 0 to kLoadsPerThread - 1, where
  //      first = blockIdx.x * kLoadsPerThread * blockDim.x + t (each only if below n; index with
  //      std::size_t: n may pass 2^31), and stores its sum in a __shared__ array;
  //   2. a barrier, then reduce2's tree: for s = blockDim.x / 2 down to 1, threads below s add
  //      element t + s to element t, with a barrier after each step;
  //   3. thread 0 writes the block's sum to block_sums[blockIdx.x].
  (void)in;
  (void)n;
  (void)block_sums;
}

}  // namespace exercise02
