// A wrong answer to exercise 1 (lesson 01), of a kind written against the grader itself: code that
// differs between the tests' build and the compiled-code check's, chosen by whether the atomic
// probe's macro atomicAdd is defined (it is in the tests' build only), and spelt with digraphs
// ('%:ifdef'), which the answer check's reading of the text for '#if' did not see. The
// compiled-code check would read the model answer's kernel; the tests would run one that counts
// with global atomics. Caught twice: that check now refuses the digraph itself, and the check of
// the preprocessed code (scripts/check_preprocessed.py) requires the answer's lines that reach the
// compiler to be the same in both builds.
// expect: rejected: uses the digraph %: (a '#' spelt another way)
// (clang-format does not read the digraphs as directives)
// clang-format off
#pragma once

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
%:ifdef atomicAdd
    atomicAdd(&bins[data[i]], 1ull);
%:else
    atomicAdd(&mine[data[i]], 1u);
%:endif
  }
  __syncthreads();  // every warp's counts are in before any bin is added up
  unsigned int total = 0;
  for (int w = 0; w < kWarpsPerBlock; ++w)
    total += counts[w][threadIdx.x];
  if (total != 0) atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(total));
}

}  // namespace exercise01
// clang-format on
