// A wrong answer to exercise 2 (lesson 02): no shuffles; thread 0 adds up the block's values from
// shared memory in a loop, and every thread reads the result. Every int sum is right; float sums
// come out in another order of additions, and their bits differ where the block has several warps.
// The shuffle count, checked in every run since round 6, sees it first: no thread shuffles.
// expect: fails: every thread makes five for its warp's sum
#pragma once

namespace exercise02 {

template <typename T>
__device__ T warp_all_sum(T v) {
  return v;
}

template <typename T>
__device__ T block_all_sum(T v) {
  __shared__ T values[1024];
  __shared__ T sum;
  values[threadIdx.x] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    T total = T(0);
    for (unsigned int t = 0; t < blockDim.x; ++t)
      total += values[t];
    sum = total;
  }
  __syncthreads();
  const T mine = sum;
  __syncthreads();
  return mine;
}

}  // namespace exercise02
