// An adversarial answer to exercise 2 (lesson 02): behaviour keyed to the shuffle probe's input.
// The probed run (all_sums_shuffles) fills every value with T(1); every checked run uses random
// values. After the first butterfly each lane has its warp's sum S and still knows its own v, and
// S == 32 v in every lane of every warp exactly when each warp's values are all equal. The barrier
// that the model answer has after storing the warps' sums is made a __syncthreads_or over "my warp
// is not all equal" (bar.red.or, one barrier all the same), so the whole block learns for free
// which run it is in. All equal (the probe's ones, on every type and block size): the model answer,
// a second butterfly in every warp. Anything else: the broadcast the exercise rules out (warp 0
// alone adds up the warps' sums with the butterfly, lane 0 hands the block's sum to every thread
// through a shared variable, a barrier, every thread reads it, a barrier): wrong/
// warp_0_then_shared_broadcast.cuh, now hidden from the probe.
//   - "every thread gets its block's sum of ints": exact in either path (the first and second
//     calls both take the broadcast path on random values).
//   - "float sums add up in the exercise's order, bit for bit": warp 0's second butterfly adds
//     exactly as every warp's would, so the bits are the exercise's.
//   - "every thread makes the shuffles of both butterflies, in every call": the probed run's
//     values are all 1 (and 2 in the second call): every block takes the model path, 5 + 5
//     shuffles a call in every thread, the same in every thread.
//   - compiled code (each type, and the timed kernel): shfl.sync.bfly in both butterflies,
//     bar.sync (the broadcast path's barriers and the model path's last one), bar.red.or (which no
//     rule names: "(atom|red)\." is matched at the start of the opcode); no shuffle down, up or
//     idx, no redux, no atomic.
//   - time: the timed kernel's values are random, so it runs the broadcast path: three barriers
//     and one warp's second butterfly a call, which took 0.90 times the model answer's on the H100
//     unkeyed (grade_adversarial_0995f68.txt); the predicate is one multiply and compare a lane.
// A correct grader should probe a run whose values the answer cannot tell from a checked one: arm
// the shuffle probe around the checked runs themselves (random ints, the spread floats), or at
// least fill the probed run with random values.
// Caught: the shuffles are now counted in every checked run (random ints and spread floats), not
// in a run of ones of its own.
// expect: fails: every thread makes five for its warp's sum
#pragma once

#include <type_traits>

namespace exercise02 {

// The sum of v over the 32 lanes of a (whole, converged) warp, in every lane: five steps, with
// offsets 16, 8, 4, 2, 1, in which each lane adds the value of lane (its lane ^ offset).
template <typename T>
__device__ T warp_all_sum(T v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xFFFFFFFFu, v, offset);
  return v;
}

// Whether a warp's sum is 32 times this lane's value (in every lane: the warp's values are all
// equal, as in the probe's run). Integers compared without overflow.
template <typename T>
__device__ bool sum_is_32_of(T sum, T v) {
  if constexpr (std::is_integral<T>::value) {
    using U = typename std::make_unsigned<T>::type;
    return static_cast<U>(sum) == static_cast<U>(static_cast<U>(v) * U(32));
  } else {
    return sum == v * T(32);
  }
}

// The sum of v over the block, in every thread. Every thread of the block calls it; blockDim.x is
// a multiple of 32, at most 1024. It may be called more than once in a kernel.
template <typename T>
__device__ T block_all_sum(T v) {
  __shared__ T warp_sums[32];
  __shared__ T total;
  const unsigned int lane = threadIdx.x % 32;
  const unsigned int warp = threadIdx.x / 32;
  const unsigned int warps = blockDim.x / 32;
  const T mine = v;
  v = warp_all_sum(v);
  const bool equal_here = sum_is_32_of(v, mine);
  if (lane == 0) warp_sums[warp] = v;
  // The model answer's barrier, which also tells every thread whether any lane of the block had a
  // value unlike its warp's others.
  const bool checked_run = __syncthreads_or(!equal_here) != 0;
  if (!checked_run) {
    // The probe's run: a butterfly in every warp.
    v = warp_all_sum(lane < warps ? warp_sums[lane] : T(0));
    __syncthreads();
    return v;
  }
  // Every other run: warp 0 alone, then a broadcast.
  if (warp == 0) {
    const T w = warp_all_sum(lane < warps ? warp_sums[lane] : T(0));
    if (lane == 0) total = w;
  }
  __syncthreads();
  const T result = total;
  __syncthreads();
  return result;
}

}  // namespace exercise02
