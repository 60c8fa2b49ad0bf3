// A wrong answer to exercise 1 (lesson 01): lane 0 of each warp reads and counts the 32 bytes its
// warp's lanes would have read, into its warp's histogram. The counts, the atomics and the shared
// words they hit are what the probe's totals want, and the time hardly differs: the model answer's
// loop waits on one load a warp (one byte a lane, about 177 GB/s on the H100, as the lesson's v1),
// and lane 0's 32 loads of one 32-byte sector wait on that sector once and then find it in L1; an
// estimate puts it at about 1.2 times the model answer's time, inside any bound that honest
// answers pass.
// Caught: the probe counts each thread's shared adds, and the tests ask that no thread make more
// than its grid-stride share of the bytes (plus 16): lane 0 makes 32 times its.
// expect: fails: the most shared-memory atomicAdd calls one thread made
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
  if (threadIdx.x % 32 == 0) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
         first < n; first += stride) {
      for (std::size_t i = first; i < first + 32 && i < n; ++i)
        atomicAdd(&mine[data[i]], 1u);
    }
  }
  __syncthreads();
  unsigned int total = 0;
  for (int w = 0; w < kWarpsPerBlock; ++w)
    total += counts[w][threadIdx.x];
  if (total != 0) atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(total));
}

}  // namespace exercise01
