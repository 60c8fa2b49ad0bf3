// A wrong answer to exercise 2 (lesson 02) that the tests may not see: a race. block_all_sum
// returns without the barrier after every warp has read the warps' sums, so in a second call a
// fast warp's lane 0 may overwrite its sum before a slow warp has read the first call's. The
// tests call it twice in a row, and the timed kernel 8,192 times, checking every result; but
// after the barrier every warp reads the sums at once, and a warp would have to fall some hundred
// cycles behind the others for the race to show, which the H100 may never do. (compute-sanitizer
// --tool racecheck finds it.) Kept here, outside the wrong answers that must score zero, until a
// GPU run shows whether it is seen.
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
  return warp_all_sum(lane < blockDim.x / 32 ? warp_sums[lane] : T(0));
}

}  // namespace exercise02
