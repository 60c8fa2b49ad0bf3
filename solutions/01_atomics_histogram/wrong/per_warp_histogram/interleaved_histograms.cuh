// An adversarial answer to exercise 1 (lesson 01): eight histograms a block, but not one per warp.
// Thread t counts into histogram t % 8, so every histogram is shared by all eight warps (lanes 0
// and 8 and 16 and 24 of every warp land in the same one); no warp owns a histogram. The tests
// would miss it: the probe only asks that every byte be one shared atomicAdd (it is), that global
// adds be at most one per bin and block (they are), and that on all-equal bytes a block hit at
// least 8 distinct shared words (it hits exactly 8, as the model answer does); the counts, the
// compiled code and the time are all a correct answer's.
// A correct grader should record which shared words each warp hits and ask that the warps of a
// block hit disjoint histograms.
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
  for (int i = threadIdx.x; i < kWarpsPerBlock * kBins; i += blockDim.x)
    counts[i / kBins][i % kBins] = 0;
  __syncthreads();
  // Interleaved copies: neighbouring lanes spread over the eight histograms.
  unsigned int* mine = counts[threadIdx.x % kWarpsPerBlock];
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    atomicAdd(&mine[data[i]], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
    unsigned long long total = 0;
    for (int w = 0; w < kWarpsPerBlock; ++w)
      total += counts[w][b];
    if (total != 0) atomicAdd(&bins[b], total);
  }
}

}  // namespace exercise01
