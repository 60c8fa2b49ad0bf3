// A wrong answer to exercise 3 (lesson 02): the course's own block_reduce, copied (whole warps
// assumed, the result in thread 0), with the result passed on to every thread. Right for multiples
// of 32 threads; for the others, the shuffles read lanes that do not exist.
// expect: fails: ([0-9]+ threads per block|did not finish)
#pragma once

namespace exercise02 {

template <typename T, typename Op>
__device__ T block_reduce(T v, Op op, T identity) {
  __shared__ T warp_results[32];
  __shared__ T result;
  const unsigned int lane = threadIdx.x % 32;
  const unsigned int warp = threadIdx.x / 32;
  for (int offset = 16; offset > 0; offset /= 2)
    v = op(v, __shfl_down_sync(0xFFFFFFFFu, v, offset));
  if (lane == 0) warp_results[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warp_results[lane] : identity;
    for (int offset = 16; offset > 0; offset /= 2)
      v = op(v, __shfl_down_sync(0xFFFFFFFFu, v, offset));
    if (lane == 0) result = v;
  }
  __syncthreads();
  const T mine = result;
  __syncthreads();
  return mine;
}

}  // namespace exercise02
