// A wrong answer to exercise 1 (lesson 01), written to fool the probe: it counts every byte in one
// histogram per block (the lesson's v1) with atomicAdd written in parentheses, (atomicAdd)(...),
// which a probe by function-like macro did not see, and, for that probe's sake, adds 0 to the
// byte's counter in its warp's histogram with a plain atomicAdd. The output is right and the
// compiled code has the model's instructions. It was kept in grading/unseen/ until the probe took
// the name itself (an object-like macro, so the parentheses reach it too) and counted shared adds
// of 0: it now makes two shared adds a byte, one of them of 0.
// expect: fails: shared-memory atomicAdd calls
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr int kBins = 256;
constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;

__global__ void per_warp_histogram_kernel(const std::uint8_t* data, std::size_t n,
                                          unsigned long long* bins) {
  __shared__ unsigned int shown[kWarpsPerBlock][kBins];  // what the probe watches: all zeros
  __shared__ unsigned int counts[kBins];                 // where the counting happens
  for (int c = threadIdx.x; c < kWarpsPerBlock * kBins; c += blockDim.x)
    shown[c / kBins][c % kBins] = 0;
  counts[threadIdx.x] = 0;
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    atomicAdd(&shown[threadIdx.x / 32][data[i]], 0u);
    (atomicAdd)(&counts[data[i]], 1u);
  }
  __syncthreads();
  if (counts[threadIdx.x] != 0) {
    atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(counts[threadIdx.x]));
  }
}

}  // namespace exercise01
