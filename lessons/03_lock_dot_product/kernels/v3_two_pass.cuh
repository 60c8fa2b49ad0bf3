// v3: deterministic, in two passes: stored block sums, added in order by a second launch.
#pragma once

#include <cstddef>

#include <02_reduce/block_reduce.cuh>

#include "check.hpp"
#include "settings.cuh"
#include "v0_v1a_lock.cuh"

namespace lesson03 {

// v3 deterministic, in two passes (v2: atomicAdd in whatever order the blocks finish). Each block
// stores its sum; a second launch of one block adds the stored sums in a fixed order. With the
// same grid, every run adds the same numbers in the same order: the same bits every time.
__global__ void __launch_bounds__(kThreads)
    partials_kernel(const float* a, const float* b, std::size_t n, float* partials) {
  const float sum = source_block_dot(a, b, n);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

__global__ void __launch_bounds__(kBigBlock)
    add_partials_kernel(const float* partials, int count, float* c) {
  float sum = 0;
  for (int j = static_cast<int>(threadIdx.x); j < count; j += blockDim.x)
    sum += partials[j];
  __shared__ lesson02::WarpSlots<float> warp_sums;
  sum = lesson02::block_sum(sum, warp_sums);
  if (threadIdx.x == 0) *c = sum;
}

inline void dot_two_pass(const float* a, const float* b, std::size_t n, float* c, Workspace& ws,
                         Launch launch) {
  const int blocks = launch.blocks > 0 ? launch.blocks : full_grid(n);
  check_grid(blocks);
  partials_kernel<<<blocks, kThreads, 0, launch.stream>>>(a, b, n, ws.partials());
  CUDA_CHECK_LAUNCH();
  add_partials_kernel<<<1, kBigBlock, 0, launch.stream>>>(ws.partials(), blocks, c);
  CUDA_CHECK_LAUNCH();
}

}  // namespace lesson03
