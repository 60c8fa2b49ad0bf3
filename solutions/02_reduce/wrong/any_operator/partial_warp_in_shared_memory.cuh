// An adversarial answer to exercise 3 (lesson 02): the part of the exercise that is new, skipped.
// Whole warps reduce with a shuffle tree (full mask); the last warp, when it is only partly there,
// never shuffles: its lanes put their values in the shared slots (before any warp has stored a
// result there), and reduce them with a tree in shared memory (offsets 16 to 1, a lane combining
// with lane + offset only when that lane exists), behind __syncwarp. A barrier later the slots hold
// the warps' results as usual. Every result is right, the trace sees at most 5 + 5 steps (the
// shared tree has as many as the shuffle tree), the shared memory is one value per warp and the
// result (33 values), the compiled code of every type and operator has shuffles and barriers and
// no reduction or atomic, and one more barrier a call (only in blocks with a partial warp) is
// well within 3 times the model answer's time.
// A correct grader should check the partial warp's shuffles themselves (a probe of the masks the
// shuffles take, or a block of 7 threads whose compiled path must shuffle).
// expect: fails: a tree of shuffles over [0-9]+ lanes takes at least
#pragma once

namespace exercise02 {

template <typename T, typename Op>
__device__ T block_reduce(T v, Op op, T identity) {
  __shared__ T slots[33];  // one per warp, and the result
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  const unsigned warps = (blockDim.x + 31) / 32;
  const unsigned left = blockDim.x - 32 * warp;
  const unsigned lanes = left < 32 ? left : 32;
  const bool has_partial = blockDim.x % 32 != 0;
  if (lanes == 32) {
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
      v = op(v, __shfl_down_sync(0xFFFFFFFFu, v, offset));
  } else {
    const unsigned mask = (1u << lanes) - 1;
    slots[lane] = v;
    __syncwarp(mask);
    for (unsigned offset = 16; offset > 0; offset /= 2) {
      if (lane < offset && lane + offset < lanes)
        slots[lane] = op(slots[lane], slots[lane + offset]);
      __syncwarp(mask);
    }
    v = slots[0];
  }
  if (has_partial) __syncthreads();  // the partial warp is done with the slots
  if (lane == 0) slots[warp] = v;
  __syncthreads();
  if (warp == 0) {
    if (warps > 1) {
      T w = lane < warps ? slots[lane] : identity;
#pragma unroll
      for (int offset = 16; offset > 0; offset /= 2)
        w = op(w, __shfl_down_sync(0xFFFFFFFFu, w, offset));
      if (lane == 0) slots[32] = w;
    } else if (lane == 0) {
      slots[32] = v;
    }
  }
  __syncthreads();
  const T result = slots[32];
  __syncthreads();
  return result;
}

}  // namespace exercise02
