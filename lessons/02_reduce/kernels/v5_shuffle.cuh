// v5: warp shuffles, through ../block_reduce.cuh's warp_sum and block_sum.
#pragma once

#include <cstddef>

#include "../block_reduce.cuh"
#include "launch.hpp"
#include "settings.cuh"

namespace lesson02 {

// v5's building blocks, warp_sum and block_sum, are in ../block_reduce.cuh, beside kernels.cuh:
// read it now (lessons 03 and 06 include it, as <02_reduce/block_reduce.cuh>). warp_sum: at each
// of five steps a lane adds the value of the lane `offset` above it, by __shfl_down_sync, straight
// from that lane's register (no shared memory, no barrier); for ints on compute capability 8.0
// and newer, __reduce_add_sync does all five steps in one instruction. block_sum: each warp sums
// its lanes, the warps' sums meet in 32 shared-memory slots (WarpSlots, which the kernel
// declares), and the first warp sums those; the block's sum ends in thread 0.

// v5 warp shuffles: the whole block reduction is warp_sum and block_sum, lanes exchanging
// registers (v4: every step went through shared memory). Two barriers per block in all.
template <typename T>
__global__ void shuffle_kernel(const T* in, std::size_t n, T* out) {
  const std::size_t i = blockIdx.x * (2 * static_cast<std::size_t>(blockDim.x)) + threadIdx.x;
  T sum = i < n ? in[i] : T(0);
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  __shared__ WarpSlots<T> slots;
  sum = block_sum(sum, slots);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

template <typename T>
void reduce_shuffle(const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch) {
  reduce_in_passes(shuffle_kernel<T>, 2 * kThreads, in, n, result, ws, launch);
}

}  // namespace lesson02
