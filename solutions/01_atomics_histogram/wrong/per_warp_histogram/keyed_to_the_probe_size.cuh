// A wrong answer to exercise 1 (lesson 01): behaviour keyed to the test. It counts in one
// histogram per warp only at n = 2^20 + 7, the size at which the probe used to watch the atomics,
// and in one histogram per block (the lesson's v1) at every other size. Every count is right;
// now the probe's size comes from the seed, and the probe sees one histogram per block.
// expect: fails: one histogram per warp
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
  const bool watched = n == (std::size_t{1} << 20) + 7;
  unsigned int* mine = counts[watched ? threadIdx.x / 32 : 0];
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    atomicAdd(&mine[data[i]], 1u);
  }
  __syncthreads();
  unsigned int total = 0;
  for (int w = 0; w < kWarpsPerBlock; ++w)
    total += counts[w][threadIdx.x];
  if (total != 0) atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(total));
}

}  // namespace exercise01
