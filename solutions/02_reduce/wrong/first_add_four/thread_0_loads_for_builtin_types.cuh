// A wrong answer to exercise 1 (lesson 02): behaviour keyed to the traced type, and the technique
// skipped where only the clock shows it. For a class type (the tests' type that counts additions)
// it is the model answer; for ints and floats, thread 0 of each block loads and adds the block's
// 1,024 elements itself and the tree adds its sum to zeros. The sums are right, the trace sees the
// model answer, and the compiled code of every type has the tree; but one thread's 1,024 loads a
// block take many times the model answer's time.
// expect: slow
#pragma once

#include <cstddef>
#include <type_traits>

namespace exercise02 {

constexpr int kFirstAddThreads = 256;
constexpr int kLoadsPerThread = 4;

template <typename T>
__global__ void first_add_kernel(const T* in, std::size_t n, T* block_sums) {
  __shared__ T cache[kFirstAddThreads];
  const unsigned int tid = threadIdx.x;
  const std::size_t start = blockIdx.x * (kLoadsPerThread * static_cast<std::size_t>(blockDim.x));
  T sum = T(0);
  if (std::is_class<T>::value) {
    for (int j = 0; j < kLoadsPerThread; ++j) {
      const std::size_t i = start + tid + j * static_cast<std::size_t>(blockDim.x);
      if (i < n) sum += in[i];
    }
  } else if (tid == 0) {
    for (std::size_t i = start; i < start + kLoadsPerThread * blockDim.x && i < n; ++i)
      sum += in[i];
  }
  cache[tid] = sum;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if (tid == 0) block_sums[blockIdx.x] = cache[0];
}

}  // namespace exercise02
