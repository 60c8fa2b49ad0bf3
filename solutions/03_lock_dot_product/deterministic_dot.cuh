// Exercise 2 (lesson 03), solved: partial sums per block, stored, then added in a fixed order.
#pragma once

#include <cstddef>

#include "block_reduce.cuh"
#include "check.hpp"

namespace exercise03 {

constexpr int kMaxPartials = 1024;  // the room in `partials`

namespace detail {

constexpr int kThreads = 256;

// Each block adds its threads' shares (a grid-stride loop each) and stores the block's sum.
__global__ void partial_dots(const float* a, const float* b, std::size_t n, float* partials) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  float sum = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    sum += a[i] * b[i];
  }
  sum = course::block_sum(sum);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

// One block adds the stored sums: each thread a fixed subset, then a fixed tree.
__global__ void add_partials(const float* partials, int count, float* result) {
  float sum = 0;
  for (int j = static_cast<int>(threadIdx.x); j < count; j += blockDim.x)
    sum += partials[j];
  sum = course::block_sum(sum);
  if (threadIdx.x == 0) *result = sum;
}

}  // namespace detail

// Writes sum a[i] b[i], i < n, to *result (all device memory; n >= 1). `partials` has room for
// kMaxPartials floats of scratch. Two runs on the same input give the same bits: the grid depends
// only on n, and every addition happens in an order fixed by the grid.
inline void deterministic_dot(const float* a, const float* b, std::size_t n, float* partials,
                              float* result) {
  const std::size_t needed = (n + detail::kThreads - 1) / detail::kThreads;
  const int blocks = static_cast<int>(needed < kMaxPartials ? needed : kMaxPartials);
  detail::partial_dots<<<blocks, detail::kThreads>>>(a, b, n, partials);
  CUDA_CHECK_LAUNCH();
  detail::add_partials<<<1, 1024>>>(partials, blocks, result);
  CUDA_CHECK_LAUNCH();
}

}  // namespace exercise03
