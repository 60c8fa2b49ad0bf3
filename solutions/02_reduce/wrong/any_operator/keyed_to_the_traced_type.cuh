// A wrong answer to exercise 3 (lesson 02): behaviour keyed to the traced type. For unsigned long
// long, the only type the trace used to count steps on, it is the model answer; for every other
// type thread 0 combines every thread's value from a shared array of 1,024 in a loop. Every
// result is right; now the trace counts on ints and floats too, and the shared memory of every
// kernel that calls it is checked.
// expect: fails: bytes of shared memory; one value per warp
#pragma once

#include <type_traits>

namespace exercise02 {

template <typename T, typename Op>
__device__ T block_reduce(T v, Op op, T identity) {
  __shared__ T result;
  if constexpr (std::is_same<T, unsigned long long>::value) {
    __shared__ T warp_results[32];
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
  } else {
    __shared__ T values[1024];
    values[threadIdx.x] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
      T total = identity;
      for (unsigned int t = 0; t < blockDim.x; ++t)
        total = op(total, values[t]);
      result = total;
    }
  }
  __syncthreads();
  const T mine = result;
  __syncthreads();
  return mine;
}

}  // namespace exercise02
