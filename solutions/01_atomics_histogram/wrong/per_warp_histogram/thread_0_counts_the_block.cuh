// A wrong answer to exercise 1 (lesson 01): the technique skipped where only the clock shows it.
// Thread 0 of each block reads and counts every byte its block's 256 threads would have read, each
// into the histogram of the warp that would have read it, so the counts, the atomics and the
// shared words they hit are all what the probe wants. But one thread now waits on 256 loads where
// the model answer's 256 threads wait on one each: several times the model answer's time.
// expect: slow
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
  if (threadIdx.x == 0) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x); first < n;
         first += stride) {
      for (unsigned int t = 0; t < blockDim.x && first + t < n; ++t)
        atomicAdd(&counts[t / 32][data[first + t]], 1u);  // warp t / 32 would have read it
    }
  }
  __syncthreads();
  unsigned int total = 0;
  for (int w = 0; w < kWarpsPerBlock; ++w)
    total += counts[w][threadIdx.x];
  if (total != 0) atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(total));
}

}  // namespace exercise01
