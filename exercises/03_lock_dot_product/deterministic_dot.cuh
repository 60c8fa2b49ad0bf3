// Exercise 2 (lesson 03): a dot product whose bits depend on nothing but the input. v3 gives the
// same bits on every run, but only with the same grid: each block's partial sum covers what a
// grid-stride loop hands it, so another grid (another GPU, another block count) adds in another
// order. Here the input is cut into chunks of kChunk elements, each chunk's sum is fixed by the
// chunk alone, and the chunks' sums are added in a fixed order: any grid gives the same bits.
// Write the two kernels; the harness launches chunk_dots with grids from 1 block to thousands, then
// add_partials with one block, and compares the bits.
#pragma once

#include <cstddef>

#include "deterministic_dot_support.cuh"  // exercise03::block_sum (grading/)

namespace exercise03 {

constexpr std::size_t kChunk = 4096;
constexpr int kThreads = 256;

// For every chunk c of the n >= 1 elements (elements c * kChunk up to the next chunk or n):
// partials[c] = sum of a[i] * b[i] over the chunk, added in an order that depends on c and n
// alone. Block b takes chunks b, b + gridDim.x, ...; blockDim.x == kThreads; any gridDim.x.
__global__ void chunk_dots(const float* a, const float* b, std::size_t n, float* partials) {
  // TODO: loop over this block's chunks (every thread of the block goes round together:
  //   block_sum has a barrier). In chunk c, thread t adds the products of elements
  //   c * kChunk + t, then every kThreads-th after it, below the chunk's end; block_sum adds the
  //   threads' sums in a fixed tree; thread 0 stores partials[c]. A __syncthreads() before the
  //   next chunk, as block_sum's shared memory is used again.
  (void)a;
  (void)b;
  (void)n;
  (void)partials;
}

// *result = the sum of partials[0, chunks), in an order that depends on chunks alone. One block of
// kThreads threads.
__global__ void add_partials(const float* partials, std::size_t chunks, float* result) {
  // TODO: thread t adds partials t, t + kThreads, ...; block_sum adds the threads' sums; thread 0
  //   writes *result.
  (void)partials;
  (void)chunks;
  (void)result;
}

}  // namespace exercise03
