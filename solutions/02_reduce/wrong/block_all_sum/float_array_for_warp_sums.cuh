// A wrong answer to exercise 2 (lesson 02): a bug the old inputs never reached. The warps' sums
// meet in a __shared__ float array, whatever T is, so an int sum past 2^24 loses its low bits on
// the way. The tests' ints used to be below 9 in size, their sums exact in a float; now they reach
// 2^22, and a warp's sum passes 2^24.
// expect: fails: ints, [0-9]+ threads per block
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
  __shared__ float warp_sums[32];
  const unsigned int lane = threadIdx.x % 32;
  const unsigned int warp = threadIdx.x / 32;
  v = warp_all_sum(v);
  if (lane == 0) warp_sums[warp] = static_cast<float>(v);
  __syncthreads();
  v = warp_all_sum(lane < blockDim.x / 32 ? static_cast<T>(warp_sums[lane]) : T(0));
  __syncthreads();
  return v;
}

}  // namespace exercise02
