// A wrong answer to exercise 1 (lesson 02): a forbidden call spelt otherwise, keyed to the traced
// type. For ints and floats the last five steps of the tree are a cooperative groups tile's
// shfl_down, which the answer check, looking for __shfl_down_sync and its kin, does not name; for
// a class type (the tests' type that counts additions) it is the model answer. The sums are right
// and the trace sees the model answer; the compiled code of the int and float kernels has the
// shuffles.
// expect: compiled: a shuffle
#pragma once

#include <cooperative_groups.h>
#include <cstddef>
#include <type_traits>

namespace exercise02 {

constexpr int kFirstAddThreads = 256;
constexpr int kLoadsPerThread = 4;

template <typename T>
__global__ void first_add_kernel(const T* in, std::size_t n, T* block_sums) {
  namespace cg = cooperative_groups;
  const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  __shared__ T cache[kFirstAddThreads];
  const unsigned int tid = threadIdx.x;
  const std::size_t first =
      blockIdx.x * (kLoadsPerThread * static_cast<std::size_t>(blockDim.x)) + tid;
  T sum = T(0);
  for (int j = 0; j < kLoadsPerThread; ++j) {
    const std::size_t i = first + j * static_cast<std::size_t>(blockDim.x);
    if (i < n) sum += in[i];
  }
  cache[tid] = sum;
  __syncthreads();
  const unsigned int last = std::is_class<T>::value ? 0 : 32;  // where the shuffles take over
  for (unsigned int s = blockDim.x / 2; s > last; s >>= 1) {
    if (tid < s) cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if constexpr (!std::is_class<T>::value) {
    if (tid < 32) {
      T v = cache[tid] + cache[tid + 32];
      for (int offset = 16; offset > 0; offset /= 2)
        v += warp.shfl_down(v, offset);
      if (tid == 0) cache[0] = v;
    }
  }
  if (tid == 0) block_sums[blockIdx.x] = cache[0];
}

}  // namespace exercise02
