// An adversarial answer to exercise 2 (lesson 02): a broadcast, which the exercise rules out. Each
// warp's sum is an xor butterfly; then only warp 0 adds up the warps' sums, with the same
// butterfly, and lane 0 hands the block's sum to every thread through a shared variable (a third
// barrier). The bits are those of the exercise's order (warp 0 adds exactly as every warp would),
// ints are exact, the compiled code has xor shuffles and barriers and no shuffle by index (the
// broadcast is a shared store and load, which the check does not look for); and 31 of 32 warps
// skip the second butterfly, which pays for the extra barrier: about the model answer's time.
// A correct grader should look for the broadcast: a shared store of one value read back by every
// thread (or count the xor shuffles per warp: five in warps 1 to 31, ten in warp 0).
// expect: fails: every thread makes five for its warp's sum
#pragma once

namespace exercise02 {

template <typename T>
__device__ T warp_all_sum(T v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xFFFFFFFFu, v, offset);
  return v;
}

template <typename T>
__device__ T block_all_sum(T v) {
  __shared__ T sums[32];
  __shared__ T total;
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  const unsigned warps = blockDim.x / 32;
  v = warp_all_sum(v);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    const T w = warp_all_sum(lane < warps ? sums[lane] : T(0));
    if (lane == 0) total = w;
  }
  __syncthreads();
  const T result = total;
  __syncthreads();
  return result;
}

}  // namespace exercise02
