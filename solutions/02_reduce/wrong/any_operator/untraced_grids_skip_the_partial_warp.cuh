// An adversarial answer to exercise 3 (lesson 02): behaviour keyed to the probed launch's shape.
// Every kernel whose shuffles the tests count or whose steps they trace (trace_kernel) is launched
// with one block; the max/min reductions' first pass and the timed kernel are launched with
// 2 x SMs blocks. With gridDim.x == 1 this is the model answer. With more blocks, the part of the
// exercise that is new is skipped: a warp cut short by the block's end never shuffles (its lanes
// put their values in the shared slots and combine them in shared memory, offsets 16 to 1, behind
// __syncwarp), whole warps shuffle with the full mask, one extra barrier keeps the slots apart,
// and warp 0 combines the warps' results as usual. (This is wrong/partial_warp_in_shared_memory
// run only where nothing probes it.)
//   - "max and min of random ints, floats and 64-bit ints", "with extremes": right in either path
//     (the first pass takes the shared-memory path, the second pass over the blocks' results, one
//     block, the model's); the identity fills no lane, so INT_MIN, -inf and 0 are no trouble.
//   - "every thread's result holds each value once, through a tree of shuffles" and "every warp
//     shuffles, a warp cut short too, naming only the lanes that exist": trace_kernel<<<1, k>>>,
//     the model path: its steps, its shuffles and its masks.
//   - "every kernel has shared memory for one value per warp and the result": both paths use the
//     same 32 + 1 shared values (static size 33 values per instance, the bound is 34).
//   - compiled code: every instance holds the model path's shfl.sync and bar.sync; no redux, atom
//     or red.
//   - time: the timed kernel (blocks of 1,000, a last warp of 8 lanes, 2 x SMs blocks) runs the
//     shared-memory path: wrong/partial_warp_in_shared_memory, the same code, took 1.02 times
//     the model answer's on the H100 (grade_adversarial_0995f68.txt).
// A correct grader should probe and trace a launch of several blocks (trace_kernel on a grid, or
// the shuffle probe armed around one of the max/min reductions, whose first pass has 2 x SMs
// blocks), so that a path chosen by gridDim.x cannot hide.
// Caught: the trace and the shuffle probe now run on one block and on the first pass's grid (two
// blocks an SM), as the reduction's two passes launch.
// expect: fails: a tree of shuffles over [0-9]+ lanes takes at least
#pragma once

namespace exercise02 {

// op over the v of every thread of the block, returned in every thread. `identity` changes nothing
// (op(identity, x) == x). Every thread of the block calls it; blockDim.x is any number from 1 to
// 1024. T is a type __shfl_down_sync takes (int, float, unsigned long long, ...).
template <typename T, typename Op>
__device__ T block_reduce(T v, Op op, T identity) {
  __shared__ T warp_results[32];
  __shared__ T result;
  const unsigned int lane = threadIdx.x % 32;
  const unsigned int warp = threadIdx.x / 32;
  const unsigned int warps = (blockDim.x + 31) / 32;
  const unsigned int here = blockDim.x - 32 * warp < 32 ? blockDim.x - 32 * warp : 32;
  const unsigned int mask = here == 32 ? 0xFFFFFFFFu : (1u << here) - 1;
  if (gridDim.x == 1) {
    // The launches the tests trace and probe: the model answer.
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
  // Every other launch: no masked shuffles; a warp cut short combines in shared memory.
  const bool cut_short = blockDim.x % 32 != 0;
  if (here == 32) {
    for (unsigned int offset = 16; offset > 0; offset /= 2)
      v = op(v, __shfl_down_sync(0xFFFFFFFFu, v, offset));
  } else {
    warp_results[lane] = v;
    __syncwarp(mask);
    for (unsigned int offset = 16; offset > 0; offset /= 2) {
      if (lane < offset && lane + offset < here)
        warp_results[lane] = op(warp_results[lane], warp_results[lane + offset]);
      __syncwarp(mask);
    }
    v = warp_results[0];
  }
  if (cut_short) __syncthreads();  // the cut-short warp has read its slots
  if (lane == 0) warp_results[warp] = v;
  __syncthreads();
  if (warp == 0) {
    if (warps > 1) {  // then warp 0 is whole
      T w = lane < warps ? warp_results[lane] : identity;
      for (unsigned int offset = 16; offset > 0; offset /= 2)
        w = op(w, __shfl_down_sync(0xFFFFFFFFu, w, offset));
      if (lane == 0) result = w;
    } else if (lane == 0) {
      result = v;
    }
  }
  __syncthreads();
  const T mine = result;
  __syncthreads();
  return mine;
}

}  // namespace exercise02
