// A wrong answer to exercise 1 (lesson 01), of a kind written against the grader itself: the model
// answer, with a header the exercise does not allow (<fstream>, to read and write files) included
// through the preprocessor's alternative spelling of '#' ('%:', a digraph), which the answer
// check's reading of the text for '#include' did not see. Caught twice: that check now refuses the
// digraph itself, and the check of the preprocessed code (scripts/check_preprocessed.py) names
// every file the answer's lines include (the line markers).
// expect: rejected: uses the digraph %: (a '#' spelt another way)
// (clang-format does not read the digraphs as directives)
// clang-format off
#pragma once

#include <cstddef>
#include <cstdint>
%:include <fstream>

namespace exercise01 {

constexpr int kBins = 256;
constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;

// Counts the n bytes at data into bins[0..255]. blockDim.x == kThreads.
__global__ void per_warp_histogram_kernel(const std::uint8_t* data, std::size_t n,
                                          unsigned long long* bins) {
  __shared__ unsigned int counts[kWarpsPerBlock][kBins];  // 8 KiB: one histogram per warp
  for (int c = threadIdx.x; c < kWarpsPerBlock * kBins; c += blockDim.x)
    counts[c / kBins][c % kBins] = 0;
  __syncthreads();  // no thread counts into a counter that is not zeroed yet
  unsigned int* mine = counts[threadIdx.x / 32];
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    atomicAdd(&mine[data[i]], 1u);  // only the 32 lanes of this warp share these counters
  }
  __syncthreads();  // every warp's counts are in before any bin is added up
  unsigned int total = 0;
  for (int w = 0; w < kWarpsPerBlock; ++w)
    total += counts[w][threadIdx.x];
  if (total != 0) atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(total));
}

}  // namespace exercise01
// clang-format on
