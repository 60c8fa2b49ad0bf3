// Reductions across a warp and across a block, for any associative operator: v5's building
// blocks, and v7's finish in the last block. Lessons 03, 04 and 06 use them again, from here.
//
//   __shared__ lesson02::WarpSlots<float> slots;            // the kernel owns the shared memory
//   const float total = lesson02::block_sum(my_partial, slots);   // the block's sum, in thread 0
//   const int most = lesson02::block_reduce(x, lesson02::Max{}, INT_MIN, int_slots);
//
// A warp reduces by shuffles: at each of five steps, a lane combines its value with the value of
// the lane `offset` above it, read straight from that lane's register. A block reduces its warps
// that way, then the warps' results meet in one shared-memory slot per warp, and the first warp
// reduces those.
#pragma once

#include <type_traits>

#include "warp.hpp"

namespace lesson02 {

struct Plus {
  template <typename T>
  __host__ __device__ T operator()(T a, T b) const {
    return a + b;
  }
};
struct Max {
  template <typename T>
  __host__ __device__ T operator()(T a, T b) const {
    return a < b ? b : a;
  }
};
struct Min {
  template <typename T>
  __host__ __device__ T operator()(T a, T b) const {
    return b < a ? b : a;
  }
};

// v reduced with op over the 32 lanes of a (full) warp; the result is in lane 0. For 32-bit ints
// on compute capability 8.0 and newer, __reduce_{add,max,min}_sync do all five steps in one
// instruction (REDUX), and every lane gets the result.
template <typename T, typename Op>
__device__ __forceinline__ T warp_reduce(T v, Op op) {
  constexpr unsigned kAll = course::kFullWarp;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  constexpr bool kInt32 = std::is_same<T, int>::value || std::is_same<T, unsigned int>::value;
  if constexpr (kInt32 && std::is_same<Op, Plus>::value) return __reduce_add_sync(kAll, v);
  if constexpr (kInt32 && std::is_same<Op, Max>::value) return __reduce_max_sync(kAll, v);
  if constexpr (kInt32 && std::is_same<Op, Min>::value) return __reduce_min_sync(kAll, v);
#endif
#pragma unroll
  for (int offset = course::kWarpSize / 2; offset > 0; offset /= 2)
    v = op(v, __shfl_down_sync(kAll, v, offset));
  return v;
}

// The shared memory a block reduction needs: one slot per warp (32 warps at most). The kernel
// declares it, `__shared__ WarpSlots<T> slots;`, so that its shared memory is all in view.
template <typename T>
struct WarpSlots {
  T slot[course::kWarpSize];
};

// v reduced with op over the whole block; the result is in thread 0. `identity` is the value
// that changes nothing (0 for +, the lowest value for max). Every thread of the block must call
// it; blockDim.x must be a multiple of 32 (at most 1024). A second call on the same slots must
// come after a __syncthreads() that follows the first.
template <typename T, typename Op>
__device__ T block_reduce(T v, Op op, T identity, WarpSlots<T>& slots) {
  const unsigned int lane = threadIdx.x % course::kWarpSize;
  const unsigned int warp = threadIdx.x / course::kWarpSize;
  v = warp_reduce(v, op);
  if (lane == 0) slots.slot[warp] = v;
  __syncthreads();  // every warp's result is in before the first warp reads them
  if (warp == 0) {
    v = lane < blockDim.x / course::kWarpSize ? slots.slot[lane] : identity;
    v = warp_reduce(v, op);
  }
  return v;
}

template <typename T>
__device__ __forceinline__ T warp_sum(T v) {
  return warp_reduce(v, Plus{});
}

template <typename T>
__device__ __forceinline__ T block_sum(T v, WarpSlots<T>& slots) {
  return block_reduce(v, Plus{}, T(0), slots);
}

// Whether this block is the last of its grid to get here: for work that one block finishes once
// every block has done its part, in the same launch (v7 here, lesson 06's v4). Call from every
// thread of the block, after the block's results are stored; every thread gets the answer, through
// `last`, a __shared__ flag the kernel declares. `finished` starts at zero and is back at zero
// once the last block has passed.
//
// A fence makes the block's stores visible to every block before the block counts itself done
// with an atomic; the block that brings the count to the grid size knows every result is in, and
// its second fence orders its reads of them after the count.
__device__ inline bool last_block_done(unsigned int* finished, bool& last) {
  __syncthreads();  // every thread of the block has stored its part
  if (threadIdx.x == 0) {
    __threadfence();  // the block's results are visible to every block before it counts itself
    // atomicInc wraps to 0 after gridDim.x - 1: the counter is ready for the next launch.
    last = atomicInc(finished, gridDim.x - 1) == gridDim.x - 1;
    __threadfence();  // and the other blocks' results are read only after their count
  }
  __syncthreads();  // `last` is known to the whole block
  return last;
}

// The shared memory of finish_in_last_block: the block sum's slots and the last-block flag.
template <typename T>
struct FinishSpace {
  WarpSlots<T> slots;
  bool last;
};

// Finishes a grid-wide sum in the same launch (v7): every block stores its sum in
// partials[blockIdx.x]; the last block to finish adds them all, in block order, and writes
// *result. The order never changes, so a float result is the same, bit for bit, on every run with
// the same grid. Call from every thread of every block, with the block's sum in thread 0, after
// any block_sum on space.slots has been followed by a __syncthreads(). `finished` starts at zero
// and is back at zero when the kernel ends.
template <typename T>
__device__ void finish_in_last_block(T block_total, T* partials, unsigned int* finished, T* result,
                                     FinishSpace<T>& space) {
  if (threadIdx.x == 0) partials[blockIdx.x] = block_total;
  if (!last_block_done(finished, space.last)) return;
  T total = 0;
  for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x)
    total += __ldcg(&partials[b]);  // from L2, where the other blocks' stores went
  total = block_sum(total, space.slots);
  if (threadIdx.x == 0) *result = total;
}

}  // namespace lesson02
