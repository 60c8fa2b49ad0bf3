// An adversarial answer to exercise 1 (lesson 01): behaviour keyed to the probe's size range. The
// probe's size is drawn from the seed now, but always from one range the test's source fixes:
// 2^21 - 1 + 32 k + {0, 1, 2} bytes, k below 65,536, so 2,097,151 to 4,194,273 bytes. Inside that
// range this answer counts in one histogram per warp, as the exercise asks; at every other size
// in one histogram per block (the lesson's v1), every warp of a block adding into the same 256
// counters. Both ways are exact, so every count is right; the probe only ever runs inside the
// range; the compiled code has the same shared and 64-bit global adds and barriers; and v1 is not
// slower on the 256 MiB of random bytes the clock times (the timing test's own comment says so).
// A correct grader should probe at a size drawn from the whole range it tests (or at the timed
// size), where one histogram per block shows as words that two warps added to.
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
  const std::size_t least = (std::size_t{1} << 21) - 1;
  const std::size_t most = least + 32 * std::size_t{65535} + 2;
  const bool watched_size = n >= least && n <= most;
  unsigned int* mine = watched_size ? counts[threadIdx.x / 32] : counts[0];
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
