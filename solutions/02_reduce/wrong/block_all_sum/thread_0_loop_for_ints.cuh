// A wrong answer to exercise 2 (lesson 02): behaviour keyed to the test, and the technique skipped
// where only the clock shows it. For floats and doubles, whose bits the tests check, it is the
// model answer; for ints, thread 0 adds up the block's values from shared memory in a loop, and
// each warp hands the total to its lanes with a butterfly over zeros, so the compiled code of
// every type has xor shuffles and barriers. Every sum is right; but a loop of up to 1,024
// additions in one thread, every call, takes several times the model answer's time.
// expect: slow
#pragma once

#include <type_traits>

namespace exercise02 {

template <typename T>
__device__ T warp_all_sum(T v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xFFFFFFFFu, v, offset);
  return v;
}

template <typename T>
__device__ T block_all_sum(T v) {
  const unsigned int lane = threadIdx.x % 32;
  if constexpr (std::is_integral<T>::value) {
    __shared__ T values[1024];
    __shared__ T total;
    values[threadIdx.x] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
      T sum = T(0);
      for (unsigned int t = 0; t < blockDim.x; ++t)
        sum += values[t];
      total = sum;
    }
    __syncthreads();
    v = warp_all_sum(lane == 0 ? total : T(0));  // the total, in every lane
    __syncthreads();
    return v;
  } else {
    __shared__ T warp_sums[32];
    const unsigned int warp = threadIdx.x / 32;
    v = warp_all_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    v = warp_all_sum(lane < blockDim.x / 32 ? warp_sums[lane] : T(0));
    __syncthreads();
    return v;
  }
}

}  // namespace exercise02
