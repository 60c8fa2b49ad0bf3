// A wrong answer to exercise 2 (lesson 02): the butterfly in every warp, but only warp 0 adds up
// the warps' sums, so the threads of the other warps return their own warp's sum. Right for blocks
// of one warp, wrong for every larger block.
// expect: fails: threads per block: thread [0-9]+ of block
#pragma once

namespace exercise02 {

template <typename T>
__device__ T warp_all_sum(T v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xFFFFFFFFu, v, offset);
  return v;
}

template <typename T>
__device__ T block_all_sum(T v) {
  __shared__ T warp_sums[32];
  const unsigned int lane = threadIdx.x % 32;
  const unsigned int warp = threadIdx.x / 32;
  v = warp_all_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) v = warp_all_sum(lane < blockDim.x / 32 ? warp_sums[lane] : T(0));
  __syncthreads();
  return v;
}

}  // namespace exercise02
