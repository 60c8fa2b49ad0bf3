// What exercise 2 (lesson 03) gives the student's file: lesson 02's block sum, so that the exercise
// is about the order of the additions across blocks, not within one.
#pragma once

#include "block_reduce.cuh"

namespace exercise03 {

// The sum of v over the block, in thread 0 (lesson 02's v5, lessons/02_reduce/block_reduce.cuh): a
// tree of shuffles whose order of additions depends only on blockDim.x, a multiple of 32. Every
// thread of the block calls it; a second call must come after a __syncthreads() that follows the
// first. Given whole, it keeps its warps' slots itself, so the exercise's kernels declare none.
template <typename T>
__device__ T block_sum(T v) {
  __shared__ lesson02::WarpSlots<T> slots;
  return lesson02::block_sum(v, slots);
}

}  // namespace exercise03
