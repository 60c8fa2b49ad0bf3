// A wrong answer to exercise 3 (lesson 02): shuffle trees in the warps, but thread 0 then combines
// the warps' results one after another in a loop. Every result is right; the trace shows up to 31
// more steps on the longest path than a tree takes.
// expect: fails: REQUIRE\( trace\.steps\[i\] <= kMostSteps \)
#pragma once

namespace exercise02 {

template <typename T, typename Op>
__device__ T block_reduce(T v, Op op, T identity) {
  __shared__ T warp_results[32];
  __shared__ T result;
  const unsigned int lane = threadIdx.x % 32;
  const unsigned int warp = threadIdx.x / 32;
  const unsigned int here = blockDim.x - 32 * warp < 32 ? blockDim.x - 32 * warp : 32;
  const unsigned int mask = here == 32 ? 0xFFFFFFFFu : (1u << here) - 1;
  for (unsigned int offset = 16; offset > 0; offset /= 2) {
    const T above = __shfl_down_sync(mask, v, offset);
    if (lane + offset < here) v = op(v, above);
  }
  if (lane == 0) warp_results[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    T total = warp_results[0];
    for (unsigned int w = 1; w < (blockDim.x + 31) / 32; ++w)
      total = op(total, warp_results[w]);
    result = total;
  }
  __syncthreads();
  const T mine = result;
  __syncthreads();
  (void)identity;
  return mine;
}

}  // namespace exercise02
