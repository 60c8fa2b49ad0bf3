// A wrong answer to exercise 3 (lesson 02): behaviour keyed to the test, and the technique skipped
// where only the clock shows it. For an operator with op(v, v) == v (the largest and the smallest
// are; the trace's counting operator is not) the warps take turns: each warp's tree of shuffles
// leaves its result in lane 0, which folds it into the block's result while the others wait, one
// barrier a warp. For any other operator it is the model answer. Every result is right, the trace
// sees the model answer, the shared memory is one value per warp and the result, and the compiled
// code has shuffles and barriers; but 32 barriers a call, in blocks of 1,000, take several times
// the model answer's time.
// expect: slow
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
  const bool idempotent = op(v, v) == v;  // the same in every thread for max and min
  for (unsigned int offset = 16; offset > 0; offset /= 2) {
    const T above = __shfl_down_sync(mask, v, offset);
    if (lane + offset < here) v = op(v, above);
  }
  if (idempotent) {
    if (threadIdx.x == 0) result = identity;
    __syncthreads();
    for (unsigned int w = 0; w < warps; ++w) {
      if (warp == w && lane == 0) result = op(result, v);
      __syncthreads();
    }
  } else {
    if (lane == 0) warp_results[warp] = v;
    __syncthreads();
    if (warp == 0) {
      v = lane < warps ? warp_results[lane] : identity;
      for (unsigned int offset = 16; offset > 0; offset /= 2) {
        const T above = __shfl_down_sync(mask, v, offset);
        if (lane + offset < here) v = op(v, above);
      }
      if (lane == 0) result = v;
    }
    __syncthreads();
  }
  const T mine = result;
  __syncthreads();
  return mine;
}

}  // namespace exercise02
