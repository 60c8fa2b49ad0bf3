// A wrong answer to exercise 1 (lesson 01), of a kind written against the grader itself: the model
// answer, with a pragma that changes how the rest of the file is compiled, the harness's own code
// after the answer among it (GCC's optimize pragma turns off the optimization of every host
// function that follows). No answer needs a pragma but once and unroll. Caught by the check of the
// preprocessed code (scripts/check_preprocessed.py), which refuses any other; the answer check of
// the text does not read pragmas.
// expect: preprocessed: uses #pragma GCC
#pragma once
#pragma GCC optimize("O0")

#include <cstddef>
#include <cstdint>

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
