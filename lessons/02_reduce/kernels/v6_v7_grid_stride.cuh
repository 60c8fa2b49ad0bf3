// v6 and v7: many elements per thread from a grid that fills the GPU, finished by a second launch
// (v6) or by the last block to finish (v7).
#pragma once

#include <cstddef>

#include "../block_reduce.cuh"
#include "check.hpp"
#include "launch.hpp"
#include "settings.cuh"
#include "vector_loads.cuh"

namespace lesson02 {

// The block size of v6 and v7: with 2 blocks of 1024 threads per SM instead of 8 of 256, a
// quarter as many blocks each reduce, store a partial sum and wait at barriers.
constexpr int kBigBlock = 1024;

// This thread's share of in[0, n): a grid-stride loop over 16-byte vectors (4 elements each),
// two vectors per round into two separate sums, so that two loads are in flight at once (with one
// sum, each load would wait for the add before it); then the unaligned head and tail, for the
// grid's first threads.
template <typename T>
__device__ __forceinline__ T thread_sum(const T* in, std::size_t n) {
  const course::Aligned16<T> data(in, n);
  const std::size_t thread = course::first_index();
  const std::size_t threads = course::grid_stride();
  T first = 0;
  T second = 0;
  std::size_t i = thread;
  for (; i + threads < data.vectors; i += 2 * threads) {
    const auto a = data.body()[i];
    const auto b = data.body()[i + threads];
    first += (a.x + a.y) + (a.z + a.w);
    second += (b.x + b.y) + (b.z + b.w);
  }
  if (i < data.vectors) {  // the last round, with one vector left
    const auto a = data.body()[i];
    first += (a.x + a.y) + (a.z + a.w);
  }
  T sum = first + second;
  data.for_each_edge(thread, [&](T x) { sum += x; });
  return sum;
}

// v6 many elements per thread: a grid that just fills the GPU, each thread summing its share
// with 16-byte loads, two in flight, in a grid-stride loop, then one block_sum (v5: two elements
// per thread, and a block, a partial sum and a pass for every 512 elements). A second launch of
// one block adds the few partial sums. Blocks of kBigBlock threads.
template <typename T, int kBlock>
__global__ void __launch_bounds__(kBlock) grid_stride_kernel(const T* in, std::size_t n, T* out) {
  __shared__ WarpSlots<T> slots;
  const T sum = block_sum(thread_sum(in, n), slots);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

// The blocks of grid_stride_kernel<T, kBlock> that fit on the GPU at once.
template <typename T, int kBlock>
int resident_blocks() {
  static const int blocks = course::occupancy_grid(grid_stride_kernel<T, kBlock>, kBlock);
  return blocks;
}

// v6 with kBlock threads per block and, if blocks > 0, that many blocks (the grid-size
// experiment of exercise 4; otherwise as many as fit on the GPU at once).
template <typename T, int kBlock = kBigBlock>
void reduce_grid_stride(const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch,
                        int blocks = 0) {
  const int grid = blocks > 0 ? blocks : resident_blocks<T, kBlock>();
  T* partials = ws.partials(0);
  grid_stride_kernel<T, kBlock><<<grid, kBlock, 0, launch.stream>>>(in, n, partials);
  CUDA_CHECK_LAUNCH();
  grid_stride_kernel<T, kBlock><<<1, kBlock, 0, launch.stream>>>(partials, grid, result);
  CUDA_CHECK_LAUNCH();
}

// ---- v7 -----------------------------------------------------------------------------------------

// v7 one launch: the last block to finish adds up the partial sums (v6: a second launch did).
// Each block stores its partial sum, then a fence makes that store visible to every block before
// the block counts itself done with an atomic; the block that sees the count reach the grid size
// knows every partial sum is in, and adds them, in block order. That finish is
// finish_in_last_block, in ../block_reduce.cuh, beside kernels.cuh (lesson 03 finishes the same
// way). (The other way to finish in one launch, an atomicAdd of each block's sum to the result,
// needs the result zeroed first, and for floats gives a different rounding on every run, since
// the blocks finish in a different order.)
template <typename T>
__global__ void __launch_bounds__(kBigBlock)
    one_launch_kernel(const T* in, std::size_t n, T* partials, unsigned int* finished, T* result) {
  __shared__ FinishSpace<T> space;
  finish_in_last_block(block_sum(thread_sum(in, n), space.slots), partials, finished, result,
                       space);
}

template <typename T>
void reduce_one_launch(const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch) {
  static const int grid = course::occupancy_grid(one_launch_kernel<T>, kBigBlock);
  one_launch_kernel<T>
      <<<grid, kBigBlock, 0, launch.stream>>>(in, n, ws.partials(0), ws.finished_blocks(), result);
  CUDA_CHECK_LAUNCH();
}

}  // namespace lesson02
