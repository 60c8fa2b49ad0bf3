// A wrong answer to exercise 3 (lesson 02): 0 instead of the identity for the lanes past the last
// warp, as a sum would have it. Right for sums and for most inputs; wrong for the largest of
// numbers that are all negative, where 0 wins.
// expect: fails: negative
#pragma once

namespace exercise02 {

template <typename T, typename Op>
__device__ T block_reduce(T v, Op op, T identity) {
  __shared__ T warp_results[32];
  __shared__ T result;
  const unsigned int lane = threadIdx.x % 32;
  const unsigned int warp = threadIdx.x / 32;
  const unsigned int warps = (blockDim.x + 31) / 32;
  const unsigned int here = blockDim.x - 32 * warp < 32 ? blockDim.x - 32 * warp : 32;
  const unsigned int mask = here == 32 ? 0xFFFFFFFFu : (1u << here) - 1;
  for (unsigned int offset = 16; offset > 0; offset /= 2) {
    const T above = __shfl_down_sync(mask, v, offset);
    if (lane + offset < here) v = op(v, above);
  }
  if (lane == 0) warp_results[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < warps ? warp_results[lane] : T(0);
    for (unsigned int offset = 16; offset > 0; offset /= 2) {
      const T above = __shfl_down_sync(mask, v, offset);
      if (lane + offset < here) v = op(v, above);
    }
    if (lane == 0) result = v;
  }
  __syncthreads();
  const T mine = result;
  __syncthreads();
  (void)identity;
  return mine;
}

}  // namespace exercise02
