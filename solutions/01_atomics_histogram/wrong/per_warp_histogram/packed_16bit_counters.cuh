// A wrong answer to exercise 1 (lesson 01): two 16-bit counters to a 32-bit word, so that the eight
// histograms take 4 KiB instead of 8. Every byte is still one shared-memory atomicAdd into its
// warp's histogram (of 1 << 16 for an odd byte), so the probe is content; but a warp that counts
// more than 65,535 of one value carries into its neighbour's counter, or out of the word. The tests
// used to count a few thousand of a value per warp; now every warp counts more than 65,535 of one.
// expect: fails: every warp counts more than 65,535 bytes of one value
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr int kBins = 256;
constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;

__global__ void per_warp_histogram_kernel(const std::uint8_t* data, std::size_t n,
                                          unsigned long long* bins) {
  __shared__ unsigned int pairs[kWarpsPerBlock][kBins / 2];  // bin b: half b % 2 of word b / 2
  for (int c = threadIdx.x; c < kWarpsPerBlock * kBins / 2; c += blockDim.x)
    pairs[c / (kBins / 2)][c % (kBins / 2)] = 0;
  __syncthreads();
  unsigned int* mine = pairs[threadIdx.x / 32];
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    const unsigned int b = data[i];
    atomicAdd(&mine[b / 2], 1u << (16 * (b % 2)));
  }
  __syncthreads();
  unsigned int total = 0;
  for (int w = 0; w < kWarpsPerBlock; ++w)
    total += (pairs[w][threadIdx.x / 2] >> (16 * (threadIdx.x % 2))) & 0xFFFFu;
  if (total != 0) atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(total));
}

}  // namespace exercise01
