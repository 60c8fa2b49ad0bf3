// An adversarial answer to exercise 1 (lesson 01): behaviour keyed to the probe's input. Every
// thread first reads three bytes, the first, the middle and the last: when they are equal (the
// probe counts bytes that are all equal) it counts in one histogram per warp; otherwise in one
// histogram per block, the lesson's v1. Both ways are exact, so the counts are right everywhere
// (inputs that are mostly one value take the per-warp way, which is also right); the probe, which
// only ever watches all-equal bytes, always sees one histogram per warp; the compiled code has the
// same atomics and barriers; and v1 is not slower on random bytes (the timing test's own comment
// says so), so the clock cannot tell.
// A correct grader should also probe random or skewed bytes, where one histogram per block shows
// up as fewer distinct shared words (or the probe should tie each word to the warp that hit it).
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
  // "A quick look at the data": an input of one value gets the per-warp histograms.
  const bool looks_uniform = n > 0 && data[0] == data[n / 2] && data[0] == data[n - 1];
  __syncthreads();
  unsigned int* mine = counts[looks_uniform ? threadIdx.x / 32 : 0];
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
