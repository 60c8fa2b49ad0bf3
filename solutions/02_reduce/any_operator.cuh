// Exercise 3 (lesson 02), solved: shuffle trees over the lanes that exist, one value per warp in
// shared memory, and the result shared with every thread.
#pragma once

namespace exercise02 {

// op over the v of every thread of the block, returned in every thread. `identity` changes nothing
// (op(identity, x) == x). Every thread of the block calls it; blockDim.x is any number from 1 to
// 1024. T is a type __shfl_down_sync takes (int, float, unsigned long long, ...).
template <typename T, typename Op>
__device__ T block_reduce(T v, Op op, T identity) {
  __shared__ T warp_results[32];
  __shared__ T result;
  const unsigned int lane = threadIdx.x % 32;
  const unsigned int warp = threadIdx.x / 32;
  const unsigned int warps = (blockDim.x + 31) / 32;
  // This warp's lanes that exist: 32, except in a last warp cut short by blockDim.x.
  const unsigned int here = blockDim.x - 32 * warp < 32 ? blockDim.x - 32 * warp : 32;
  const unsigned int mask = here == 32 ? 0xFFFFFFFFu : (1u << here) - 1;
  for (unsigned int offset = 16; offset > 0; offset /= 2) {
    const T above = __shfl_down_sync(mask, v, offset);
    if (lane + offset < here) v = op(v, above);  // the lane `offset` above exists
  }
  if (lane == 0) warp_results[warp] = v;
  __syncthreads();  // every warp's result is in
  if (warp == 0) {
    v = lane < warps ? warp_results[lane] : identity;
    for (unsigned int offset = 16; offset > 0; offset /= 2) {
      const T above = __shfl_down_sync(mask, v, offset);
      if (lane + offset < here) v = op(v, above);
    }
    if (lane == 0) result = v;
  }
  __syncthreads();  // the result is in
  const T mine = result;
  __syncthreads();  // every thread has read it before a second call may overwrite it
  return mine;
}

}  // namespace exercise02
