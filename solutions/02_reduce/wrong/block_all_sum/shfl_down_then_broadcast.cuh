// A wrong answer to exercise 2 (lesson 02): the lesson's own block_sum (shuffles down, the sum in
// thread 0), copied, and the sum handed to every thread through shared memory. The answer check
// refuses __shfl_down_sync in this exercise.
// expect: rejected: uses __shfl_down_sync
#pragma once

namespace exercise02 {

template <typename T>
__device__ T warp_all_sum(T v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xFFFFFFFFu, v, offset);
  return __shfl_sync(0xFFFFFFFFu, v, 0);
}

template <typename T>
__device__ T block_all_sum(T v) {
  __shared__ T warp_sums[32];
  v = warp_all_sum(v);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  v = warp_all_sum(threadIdx.x % 32 < blockDim.x / 32 ? warp_sums[threadIdx.x % 32] : T(0));
  __syncthreads();
  return v;
}

}  // namespace exercise02
