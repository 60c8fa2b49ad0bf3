// A wrong answer to exercise 1 (lesson 02): thread 0 of each block adds up the block's elements in
// a loop. The sums are right; the first add and the tree are skipped, and the trace of the
// additions shows a path of a thousand of them.
// expect: fails: CHECK\( traces\[b\]\.additions <= kMostAdditions \)
#pragma once

#include <cstddef>

namespace exercise02 {

constexpr int kFirstAddThreads = 256;
constexpr int kLoadsPerThread = 4;

template <typename T>
__global__ void first_add_kernel(const T* in, std::size_t n, T* block_sums) {
  if (threadIdx.x != 0) return;
  const std::size_t first = blockIdx.x * (kLoadsPerThread * static_cast<std::size_t>(blockDim.x));
  T sum = T(0);
  for (std::size_t i = first; i < first + kLoadsPerThread * blockDim.x && i < n; ++i)
    sum += in[i];
  block_sums[blockIdx.x] = sum;
}

}  // namespace exercise02
