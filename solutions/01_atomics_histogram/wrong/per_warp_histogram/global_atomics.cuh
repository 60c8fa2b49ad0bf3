// A wrong answer to exercise 1 (lesson 01), kept to prove the tests grade the technique: the
// source's first program, every byte an atomicAdd on the global histogram. The counts are right;
// the privatisation the exercise asks for is skipped.
// expect: fails: shared-memory atomicAdd calls: 0;
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr int kBins = 256;
constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;

__global__ void per_warp_histogram_kernel(const std::uint8_t* data, std::size_t n,
                                          unsigned long long* bins) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    atomicAdd(&bins[data[i]], 1ull);
  }
}

}  // namespace exercise01
