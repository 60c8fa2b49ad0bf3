// Exercise 2 (lesson 02): a block sum that every thread gets. v5's warp_sum shifts values down
// with __shfl_down_sync and leaves the sum in lane 0; here each lane exchanges with a partner by
// xor (a butterfly), so after five steps every lane holds the warp's sum, and after the second
// stage every thread holds the block's. The answer check refuses __shfl_down_sync, __shfl_up_sync
// and the reduce intrinsics in this exercise. Write warp_all_sum and block_all_sum.
#pragma once

namespace exercise02 {

// The sum of v over the 32 lanes of a (whole, converged) warp, in every lane: five steps, with
// offsets 16, 8, 4, 2, 1, in which each lane adds the value of lane (its lane ^ offset).
template <typename T>
__device__ T warp_all_sum(T v) {
  // TODO: five steps of v += __shfl_xor_sync(0xFFFFFFFFu, v, offset), offset = 16, 8, 4, 2, 1.
  return v;
}

// The sum of v over the block, in every thread. Every thread of the block calls it; blockDim.x is
// a multiple of 32, at most 1024. It may be called more than once in a kernel.
template <typename T>
__device__ T block_all_sum(T v) {
  // TODO: each warp sums its lanes with warp_all_sum; lane 0 of each warp stores the warp's sum
  //   in a __shared__ array of 32; a barrier; then every warp sums the blockDim.x / 32 stored
  //   values (T(0) for the lanes beyond them) with warp_all_sum, so every thread has the block's
  //   sum. The tests check float sums bit for bit against exactly this order of additions.
  //   Think about a second call: when may it overwrite the shared array?
  return v;
}

}  // namespace exercise02
