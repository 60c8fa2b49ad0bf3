// Exercise 2 (lesson 02), solved: a butterfly of xor shuffles in every warp, then the same over the
// warps' sums, in every warp, so every thread ends with the block's sum.
#pragma once

namespace exercise02 {

// The sum of v over the 32 lanes of a (whole, converged) warp, in every lane: five steps, with
// offsets 16, 8, 4, 2, 1, in which each lane adds the value of lane (its lane ^ offset).
template <typename T>
__device__ T warp_all_sum(T v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xFFFFFFFFu, v, offset);  // lane l and lane l ^ offset add the same pair
  return v;
}

// The sum of v over the block, in every thread. Every thread of the block calls it; blockDim.x is
// a multiple of 32, at most 1024. It may be called more than once in a kernel.
template <typename T>
__device__ T block_all_sum(T v) {
  __shared__ T warp_sums[32];
  const unsigned int lane = threadIdx.x % 32;
  const unsigned int warp = threadIdx.x / 32;
  v = warp_all_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();  // every warp's sum is in before any warp reads them
  v = warp_all_sum(lane < blockDim.x / 32 ? warp_sums[lane] : T(0));  // in every warp: no broadcast
  __syncthreads();  // every warp has read the sums before a second call overwrites them
  return v;
}

}  // namespace exercise02
