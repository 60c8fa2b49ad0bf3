// Exercise 3 (lesson 02): the block reduction for any associative, commutative operator, used
// for the largest and the smallest element. Write warp_reduce and block_reduce; the rest is given.
// Lesson 06 (top-k) builds on the same idea.
#pragma once

#include <cstddef>
#include <limits>

#include "check.hpp"
#include "device_memory.hpp"
#include "launch.hpp"

namespace exercise02 {

struct Max {
  template <typename T>
  __device__ T operator()(T a, T b) const {
    return a > b ? a : b;
  }
};
struct Min {
  template <typename T>
  __device__ T operator()(T a, T b) const {
    return a < b ? a : b;
  }
};

// op(v) over the 32 lanes of a (whole, converged) warp, returned in lane 0.
template <typename T, typename Op>
__device__ T warp_reduce(T v, Op op) {
  // TODO: as exercise 2's warp_sum, with op(v, other) in place of v + other.
  (void)op;
  return v;
}

// op(v) over the block, returned in thread 0; `identity` is the value that changes nothing
// (op(identity, x) == x). Every thread calls it; blockDim.x is a multiple of 32, at most 1024.
template <typename T, typename Op>
__device__ T block_reduce(T v, Op op, T identity) {
  // TODO: as exercise 2's block_sum, with warp_reduce(v, op), and `identity` (not 0) for the
  //   lanes of warp 0 beyond blockDim.x / 32.
  (void)identity;
  return v;
}

constexpr int kReduceThreads = 256;

template <typename T, typename Op>
__global__ void reduce_kernel(const T* in, std::size_t n, Op op, T identity, T* block_results) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  T v = identity;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    v = op(v, in[i]);
  }
  v = block_reduce(v, op, identity);
  if (threadIdx.x == 0) block_results[blockIdx.x] = v;
}

// op over the n >= 1 elements at d_in (device memory), returned to the host.
template <typename T, typename Op>
T reduce(const T* d_in, std::size_t n, Op op, T identity) {
  const int blocks = 4 * course::sm_count();
  course::DeviceBuffer<T> partial(blocks);
  course::DeviceBuffer<T> result(1);
  reduce_kernel<<<blocks, kReduceThreads>>>(d_in, n, op, identity, partial.data());
  CUDA_CHECK_LAUNCH();
  reduce_kernel<<<1, kReduceThreads>>>(partial.data(), blocks, op, identity, result.data());
  CUDA_CHECK_LAUNCH();
  return result.download()[0];
}

// The largest and the smallest element. The identity of max is the lowest value of T (for
// floats, -infinity), and of min the highest.
template <typename T>
T reduce_max(const T* d_in, std::size_t n) {
  const T lowest = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                        : std::numeric_limits<T>::lowest();
  return reduce(d_in, n, Max{}, lowest);
}
template <typename T>
T reduce_min(const T* d_in, std::size_t n) {
  const T highest = std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                         : std::numeric_limits<T>::max();
  return reduce(d_in, n, Min{}, highest);
}

}  // namespace exercise02
