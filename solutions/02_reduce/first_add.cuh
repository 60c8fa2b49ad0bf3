// Exercise 1 (lesson 02): the first add during the load, Harris's fix for the idle threads of
// reduce2. Write the kernel; the host function that runs it in passes is given.
#pragma once

#include <cstddef>

#include "check.hpp"
#include "device_memory.hpp"

namespace exercise02 {

constexpr int kFirstAddThreads = 256;

// Writes to block_sums[blockIdx.x] the sum of the 2 * blockDim.x elements of in[0, n) that
// start at blockIdx.x * 2 * blockDim.x (elements past n count as 0). blockDim.x == 256.
template <typename T>
__global__ void first_add_kernel(const T* in, std::size_t n, T* block_sums) {
  __shared__ T cache[kFirstAddThreads];
  const unsigned int tid = threadIdx.x;
  const std::size_t i = blockIdx.x * (2 * static_cast<std::size_t>(blockDim.x)) + tid;
  T sum = i < n ? in[i] : T(0);
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  cache[tid] = sum;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if (tid == 0) block_sums[blockIdx.x] = cache[0];
}

// Sums the n >= 1 elements at d_in (device memory) into *d_result (device memory): the kernel
// runs on the input, then on its own block sums, until one value is left.
template <typename T>
void reduce_first_add(const T* d_in, std::size_t n, T* d_result) {
  const std::size_t per_block = 2 * kFirstAddThreads;
  course::DeviceBuffer<T> a((n + per_block - 1) / per_block);
  course::DeviceBuffer<T> b((n + per_block - 1) / per_block);
  const T* source = d_in;
  std::size_t count = n;
  bool into_a = true;
  do {
    const std::size_t blocks = (count + per_block - 1) / per_block;
    T* destination = blocks == 1 ? d_result : (into_a ? a.data() : b.data());
    first_add_kernel<<<static_cast<unsigned>(blocks), kFirstAddThreads>>>(source, count,
                                                                          destination);
    CUDA_CHECK_LAUNCH();
    source = destination;
    count = blocks;
    into_a = !into_a;
  } while (count > 1);
  CUDA_CHECK(cudaDeviceSynchronize());  // the buffers must outlive the launches that use them
}

}  // namespace exercise02
