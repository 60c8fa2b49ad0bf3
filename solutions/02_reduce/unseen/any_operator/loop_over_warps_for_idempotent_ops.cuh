// A wrong answer to exercise 3 (lesson 02) that the tests cannot see: behaviour keyed to the
// test. For an operator with op(v, v) == v (the largest and the smallest are; the trace's counting
// operator is not) thread 0 combines the warps' results one after another in a loop, as
// wrong/any_operator/warps_combined_in_a_loop.cuh does for every operator; for any other operator
// it is the model answer. Every result is right, the trace sees the model answer, the shared
// memory is one value per warp and the result, and the compiled code has the shuffles. Only the
// trace's step count told the loop from the tree, and a loop of at most 32 steps from shared
// memory costs about what five shuffles do: the clock cannot tell them apart. Kept here, outside
// the wrong answers that must score zero, to show what the grading cannot promise.
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
  const bool idempotent = op(v, v) == v;
  for (unsigned int offset = 16; offset > 0; offset /= 2) {
    const T above = __shfl_down_sync(mask, v, offset);
    if (lane + offset < here) v = op(v, above);
  }
  if (lane == 0) warp_results[warp] = v;
  __syncthreads();
  if (idempotent) {
    if (threadIdx.x == 0) {
      T total = identity;
      for (unsigned int w = 0; w < warps; ++w)
        total = op(total, warp_results[w]);
      result = total;
    }
  } else if (warp == 0) {
    v = lane < warps ? warp_results[lane] : identity;
    for (unsigned int offset = 16; offset > 0; offset /= 2) {
      const T above = __shfl_down_sync(mask, v, offset);
      if (lane + offset < here) v = op(v, above);
    }
    if (lane == 0) result = v;
  }
  __syncthreads();
  const T mine = result;
  __syncthreads();
  return mine;
}

}  // namespace exercise02
