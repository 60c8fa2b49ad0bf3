// An adversarial answer to exercise 2 (lesson 02): the second stage is not a butterfly. Each warp's
// sum is a real xor butterfly, but then every thread reads all 32 slots of the warps' sums from
// shared memory (broadcast loads) and replays, in its own registers, the additions lane 0 of the
// butterfly would make: s[i] + s[i + offset] for offset 16, 8, 4, 2, 1. Because every lane of a
// butterfly ends with the same bits (x + y == y + x), that is bit for bit the exercise's order, so
// the float and double checks pass; ints are exact anyway; the compiled code of every type has the
// xor shuffles and the barriers and no other shuffle; and 32 broadcast words and 31 adds in
// registers cost about what a second butterfly of five shuffles does.
// A correct grader should see that the second stage makes no shuffles: count the xor shuffles
// each call makes (or the shfl.sync.bfly a kernel holds: ten, not five, per call).
// On an H100 its 32 registers of warp sums, beside the shuffle probe's, do not fit 1024 threads:
// the launch fails first (cudaErrorLaunchOutOfResources), which scores zero too.
// expect: fails: every thread makes five for its warp's sum|cudaErrorLaunchOutOfResources
#pragma once

namespace exercise02 {

template <typename T>
__device__ T warp_all_sum(T v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_xor_sync(0xFFFFFFFFu, v, offset);
  return v;
}

template <typename T>
__device__ T block_all_sum(T v) {
  __shared__ alignas(16) T sums[32];
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  const unsigned warps = blockDim.x / 32;
  v = warp_all_sum(v);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  // Lane 0's butterfly over the warps' sums, replayed in registers.
  T s[32];
#pragma unroll
  for (int i = 0; i < 32; ++i)
    s[i] = static_cast<unsigned>(i) < warps ? sums[i] : T(0);
#pragma unroll
  for (int i = 0; i < 16; ++i)
    s[i] = s[i] + s[i + 16];
#pragma unroll
  for (int i = 0; i < 8; ++i)
    s[i] = s[i] + s[i + 8];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    s[i] = s[i] + s[i + 4];
#pragma unroll
  for (int i = 0; i < 2; ++i)
    s[i] = s[i] + s[i + 2];
  s[0] = s[0] + s[1];
  __syncthreads();  // a second call may overwrite sums only after every thread has read them
  return s[0];
}

}  // namespace exercise02
