// A wrong answer to exercise 1 (lesson 01): a forbidden call spelt otherwise. The merge adds to
// the bins through cuda::atomic's operator +=, which the answer check, looking for atomic_ref and
// fetch_add, does not name, and which the probe does not see (it counts atomicAdd calls, and
// global ones need only be no more than the merges). The compiled code shows what it is: an atomic
// on a generic address, behind a fence.
// expect: compiled: an atomic on a generic address
#pragma once

#include <cstddef>
#include <cstdint>
#include <cuda/atomic>

namespace exercise01 {

constexpr int kBins = 256;
constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;

__global__ void per_warp_histogram_kernel(const std::uint8_t* data, std::size_t n,
                                          unsigned long long* bins) {
  __shared__ unsigned int counts[kWarpsPerBlock][kBins];
  for (int c = threadIdx.x; c < kWarpsPerBlock * kBins; c += blockDim.x)
    counts[c / kBins][c % kBins] = 0;
  __syncthreads();
  unsigned int* mine = counts[threadIdx.x / 32];
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    atomicAdd(&mine[data[i]], 1u);
  }
  __syncthreads();
  unsigned int total = 0;
  for (int w = 0; w < kWarpsPerBlock; ++w)
    total += counts[w][threadIdx.x];
  using Bin = cuda::atomic<unsigned long long, cuda::thread_scope_device>;
  if (total != 0) reinterpret_cast<Bin*>(bins)[threadIdx.x] += total;
}

}  // namespace exercise01
