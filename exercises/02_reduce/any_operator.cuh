// Exercise 3 (lesson 02): the block reduction for any associative, commutative operator and any
// number of threads. lessons/02_reduce/block_reduce.cuh (lesson 02's v5) needs whole warps and
// leaves the result in thread 0; here a block may have any size from 1 to 1024, the last warp may
// be partly there, and every thread gets the result. Write block_reduce; the tests use it for the
// largest and the smallest element, and with an operator that counts the steps a result went
// through.
#pragma once

namespace exercise02 {

// op over the v of every thread of the block, returned in every thread. `identity` changes nothing
// (op(identity, x) == x). Every thread of the block calls it; blockDim.x is any number from 1 to
// 1024. T is a type __shfl_down_sync takes (int, float, unsigned long long, ...).
template <typename T, typename Op>
__device__ T block_reduce(T v, Op op, T identity) {
  // TODO:
  //   1. in each warp, a shuffle tree (offsets 16, 8, 4, 2, 1): only the lanes that exist take
  //      part. The last warp has lanes = blockDim.x - 32 * warp of them, when that is below 32:
  //      give __shfl_down_sync the mask of those lanes, and combine a lane's value with the one
  //      `offset` above only when that lane exists;
  //   2. lane 0 of each warp stores the warp's result in a __shared__ array of 32; a barrier;
  //   3. warp 0 reduces the stored results the same way (identity for the lanes past the number
  //      of warps), and thread 0 stores the block's result in shared memory; a barrier;
  //   4. every thread reads it (and, before returning, a barrier, so that a second call cannot
  //      overwrite it while a thread is still reading).
  //   Shared memory holds one value per warp, and the result: no more.
  (void)op;
  (void)identity;
  return v;
}

}  // namespace exercise02
