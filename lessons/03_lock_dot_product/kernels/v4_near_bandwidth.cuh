// v4: near bandwidth, in one launch: 16-byte loads, four in flight, warp shuffles, and the last
// block to finish adding the stored sums in order (lesson 02's finish). Lesson 07 runs it on every
// GPU.
#pragma once

#include <cstddef>

#include <02_reduce/block_reduce.cuh>

#include "check.hpp"
#include "launch.hpp"
#include "settings.cuh"
#include "vector_loads.cuh"

namespace lesson03 {

// This thread's share of sum a[i] b[i]: a grid-stride loop over 16-byte vectors of a and b (4
// elements each), two rounds at a time into two sums, so that four loads are in flight at once;
// then the unaligned head and tail. When a and b are not equally misaligned, their vectors would
// not pair up, and the loop takes one element at a time instead.
__device__ __forceinline__ float thread_dot(const float* a, const float* b, std::size_t n) {
  const course::Aligned16<float> va(a, n);
  const course::Aligned16<float> vb(b, n);
  const std::size_t thread = course::first_index();
  const std::size_t threads = course::grid_stride();
  float first = 0;
  float second = 0;
  if (va.head != vb.head) {
    for (std::size_t i = thread; i < n; i += threads)
      first += a[i] * b[i];
    return first;
  }
  auto dot4 = [](float4 x, float4 y, float sum) {
    return ((sum + x.x * y.x) + x.y * y.y) + (x.z * y.z + x.w * y.w);
  };
  std::size_t i = thread;
  for (; i + threads < va.vectors; i += 2 * threads) {
    const float4 a0 = va.body()[i];
    const float4 b0 = vb.body()[i];
    const float4 a1 = va.body()[i + threads];
    const float4 b1 = vb.body()[i + threads];
    first = dot4(a0, b0, first);
    second = dot4(a1, b1, second);
  }
  if (i < va.vectors) first = dot4(va.body()[i], vb.body()[i], first);
  float sum = first + second;
  va.for_each_edge_index(thread, [&](std::size_t j) { sum += a[j] * b[j]; });
  return sum;
}

// v4 near bandwidth: 16-byte loads of both arrays, four in flight per thread, warp shuffles for
// the block's sum, blocks of 1024 threads, and one launch, in which the last block to finish adds
// the stored sums in block order (v3: 4-byte loads, a shared-memory tree, a second launch). Still
// deterministic.
__global__ void __launch_bounds__(kBigBlock)
    near_bandwidth_kernel(const float* a, const float* b, std::size_t n, float* partials,
                          unsigned int* finished, float* c) {
  __shared__ lesson02::FinishSpace<float> space;
  lesson02::finish_in_last_block(lesson02::block_sum(thread_dot(a, b, n), space.slots), partials,
                                 finished, c, space);
}

// v4's grid: as many blocks of kBigBlock as the GPU holds at once, whatever n (the parameter gives
// every version's grid function the same signature).
inline int near_bandwidth_grid(std::size_t) {
  static const int grid = course::occupancy_grid(near_bandwidth_kernel, kBigBlock);
  return grid;
}

inline void dot_near_bandwidth(const float* a, const float* b, std::size_t n, float* c,
                               Workspace& ws, Launch launch) {
  const int blocks = launch.blocks > 0 ? launch.blocks : near_bandwidth_grid(n);
  check_grid(blocks);
  near_bandwidth_kernel<<<blocks, kBigBlock, 0, launch.stream>>>(a, b, n, ws.partials(),
                                                                 ws.finished_blocks(), c);
  CUDA_CHECK_LAUNCH();
}

}  // namespace lesson03
