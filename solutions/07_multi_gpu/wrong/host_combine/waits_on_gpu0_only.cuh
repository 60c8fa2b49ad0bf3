// A wrong answer to exercise 1 (lesson 07): each copy goes on its rank's stream, but the host then
// waits with cudaDeviceSynchronize on the current GPU alone, rank 0's. Where every rank shares one
// GPU that waits for them all, and the answer is right; where ranks sit on other GPUs, their counts
// have not landed when the host adds them.
// expect: fails: elements differ
// needs: 2 GPUs
#pragma once

#include <cstddef>

#include "ranks_support.cuh"  // exercise07::Ranks (grading/)

namespace exercise07 {

constexpr int kBins = 256;

inline void host_combine(const Ranks& ranks, const unsigned long long* const* partials,
                         unsigned long long* host, unsigned long long* out) {
  int previous = 0;
  cudaGetDevice(&previous);
  const int g = ranks.count();
  for (int r = 0; r < g; ++r) {
    cudaSetDevice(ranks.devices[r]);
    cudaMemcpyAsync(host + static_cast<std::size_t>(r) * kBins, partials[r],
                    kBins * sizeof(unsigned long long), cudaMemcpyDeviceToHost, ranks.streams[r]);
  }
  cudaSetDevice(ranks.devices[0]);
  cudaDeviceSynchronize();  // rank 0's GPU only
  for (int r = 1; r < g; ++r) {
    for (int b = 0; b < kBins; ++b)
      host[b] += host[static_cast<std::size_t>(r) * kBins + b];
  }
  cudaMemcpy(out, host, kBins * sizeof(unsigned long long), cudaMemcpyHostToDevice);
  cudaSetDevice(previous);
}

}  // namespace exercise07
