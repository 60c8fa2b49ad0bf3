// Exercise 2 (lesson 02): the warp-shuffle block reduction. Write warp_sum and block_sum; the
// reduction that uses them is given.
#pragma once

#include <cstddef>

#include "check.hpp"
#include "device_memory.hpp"
#include "launch.hpp"

namespace exercise02 {

// The sum of v over the 32 lanes of a (whole, converged) warp, returned in lane 0.
template <typename T>
__device__ T warp_sum(T v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xFFFFFFFFu, v, offset);
  return v;
}

// The sum of v over the block, returned in thread 0. Every thread of the block calls it;
// blockDim.x is a multiple of 32, at most 1024.
template <typename T>
__device__ T block_sum(T v) {
  __shared__ T warp_sums[32];
  const unsigned int lane = threadIdx.x % 32;
  const unsigned int warp = threadIdx.x / 32;
  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) v = warp_sum(lane < blockDim.x / 32 ? warp_sums[lane] : T(0));
  return v;
}

constexpr int kBlockSumThreads = 512;

// Each block sums its share of in[0, n) (grid-stride) with block_sum.
template <typename T>
__global__ void block_sum_kernel(const T* in, std::size_t n, T* block_sums) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  T sum = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    sum += in[i];
  }
  sum = block_sum(sum);
  if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;
}

// Sums the n >= 1 elements at d_in (device memory) into *d_result (device memory): one launch
// over the input, one block over the block sums.
template <typename T>
void reduce_with_block_sum(const T* d_in, std::size_t n, T* d_result) {
  const int blocks = 4 * course::sm_count();
  course::DeviceBuffer<T> block_sums(blocks);
  block_sum_kernel<<<blocks, kBlockSumThreads>>>(d_in, n, block_sums.data());
  CUDA_CHECK_LAUNCH();
  block_sum_kernel<<<1, kBlockSumThreads>>>(block_sums.data(), blocks, d_result);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());  // block_sums must outlive the launches that use it
}

}  // namespace exercise02
