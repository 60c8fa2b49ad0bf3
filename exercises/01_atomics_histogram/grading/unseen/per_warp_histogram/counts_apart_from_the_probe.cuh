// A wrong answer to exercise 1 (lesson 01) that the tests cannot see: code written to fool the
// probe. It counts every byte in one histogram per block (the lesson's v1) with atomicAdd written
// in parentheses, (atomicAdd)(...), which is not a call of the probe's function-like macro; and,
// for the probe's sake, it adds 0 to the byte's counter in its warp's histogram with a plain
// atomicAdd. The probe sees one shared-memory add per byte into each warp's histogram; the
// compiled code has shared-memory adds and a 64-bit merge, like the model answer's; the output is
// right; and on the H100 a second shared-memory atomic a byte costs little next to the load the
// loop waits on. Only a reader sees that the per-warp histograms hold zeros. Kept here, outside
// the wrong answers that must score zero, to show what the grading cannot promise.
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
