// A wrong answer to exercise 2 (lesson 02): a forbidden call spelt otherwise, keyed to the test.
// For floats and doubles, whose bits the tests check against the exercise's order, it is the
// model answer; for ints, whose sums come out the same in any order, each warp's sum is the
// lesson's shuffle down, through a cooperative groups tile's shfl_down and shfl, names the answer
// check (looking for __shfl_down_sync) does not know. Every sum is right; the compiled code of the
// int kernel has the shuffles down and the broadcast.
// expect: compiled: a shuffle down, up or by index
#pragma once

#include <cooperative_groups.h>
#include <type_traits>

namespace exercise02 {

template <typename T>
__device__ T warp_all_sum(T v) {
  if constexpr (std::is_integral<T>::value) {
    namespace cg = cooperative_groups;
    const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    for (int offset = 16; offset > 0; offset /= 2)
      v += warp.shfl_down(v, offset);
    return warp.shfl(v, 0);
  } else {
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_xor_sync(0xFFFFFFFFu, v, offset);
    return v;
  }
}

template <typename T>
__device__ T block_all_sum(T v) {
  __shared__ T warp_sums[32];
  const unsigned int lane = threadIdx.x % 32;
  const unsigned int warp = threadIdx.x / 32;
  v = warp_all_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  v = warp_all_sum(lane < blockDim.x / 32 ? warp_sums[lane] : T(0));
  __syncthreads();
  return v;
}

}  // namespace exercise02
