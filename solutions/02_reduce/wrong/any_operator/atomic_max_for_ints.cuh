// A wrong answer to exercise 3 (lesson 02): behaviour keyed to the test. For ints it asks the
// operator which of 1 and 2 it keeps: 2, and it is the largest, so every thread makes an atomicMax
// on a shared result; 1, the smallest, an atomicMin. Any other operator (the trace's) gets the
// model answer. Every result is right and the trace sees the model answer; the compiled code of
// the int kernels has the atomics.
// expect: compiled: an atomic
#pragma once

#include <type_traits>

namespace exercise02 {

template <typename T, typename Op>
__device__ T block_reduce(T v, Op op, T identity) {
  __shared__ T warp_results[32];
  __shared__ T result;
  if constexpr (std::is_same<T, int>::value) {
    const T kept = op(1, 2);
    if (kept == 1 || kept == 2) {
      if (threadIdx.x == 0) result = identity;
      __syncthreads();
      if (kept == 2) {
        atomicMax(&result, v);
      } else {
        atomicMin(&result, v);
      }
      __syncthreads();
      const T mine = result;
      __syncthreads();
      return mine;
    }
  }
  const unsigned int lane = threadIdx.x % 32;
  const unsigned int warp = threadIdx.x / 32;
  const unsigned int warps = (blockDim.x + 31) / 32;
  const unsigned int here = blockDim.x - 32 * warp < 32 ? blockDim.x - 32 * warp : 32;
  const unsigned int mask = here == 32 ? 0xFFFFFFFFu : (1u << here) - 1;
  for (unsigned int offset = 16; offset > 0; offset /= 2) {
    const T above = __shfl_down_sync(mask, v, offset);
    if (lane + offset < here) v = op(v, above);
  }
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
  const T mine = result;
  __syncthreads();
  return mine;
}

}  // namespace exercise02
