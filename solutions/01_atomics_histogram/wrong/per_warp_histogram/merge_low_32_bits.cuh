// A wrong answer to exercise 1 (lesson 01): the merge adds each block's total to the low 32 bits of
// its 64-bit bin (an atomicAdd on the bins seen as unsigned int words), so a bin past 2^32 loses
// its carry. The inputs used to stay far below 2^32 bytes, and the probe counts the call as one
// global atomicAdd like any other; the compiled code shows a 32-bit global add.
// expect: compiled: a global atomic other than a 64-bit add
#pragma once

#include <cstddef>
#include <cstdint>

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
  // The low word of a little-endian 64-bit counter.
  if (total != 0) atomicAdd(reinterpret_cast<unsigned int*>(&bins[threadIdx.x]), total);
}

}  // namespace exercise01
