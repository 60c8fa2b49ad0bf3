// A wrong answer to exercise 1 (lesson 07): the peer copies the exercise refuses, written as
// cudaMemcpyAsync with cudaMemcpyDefault, which the runtime turns into a copy from one GPU's memory
// to another's. Every rank's counts are gathered on rank 0's GPU, then come to the host in one
// copy. The sum is right, and no forbidden name appears; the record of the copies shows a copy
// that goes GPU to GPU instead of through host memory.
// expect: fails: from GPU [0-9]+.s memory to GPU
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
  const std::size_t row = kBins * sizeof(unsigned long long);
  cudaSetDevice(ranks.devices[0]);
  unsigned long long* gathered = nullptr;
  cudaMalloc(&gathered, g * row);
  for (int r = 0; r < g; ++r) {
    cudaSetDevice(ranks.devices[r]);
    cudaMemcpyAsync(gathered + static_cast<std::size_t>(r) * kBins, partials[r], row,
                    cudaMemcpyDefault, ranks.streams[r]);
  }
  for (int r = 0; r < g; ++r) {
    cudaSetDevice(ranks.devices[r]);
    cudaStreamSynchronize(ranks.streams[r]);
  }
  cudaSetDevice(ranks.devices[0]);
  cudaMemcpy(host, gathered, g * row, cudaMemcpyDeviceToHost);
  cudaFree(gathered);
  for (int r = 1; r < g; ++r) {
    for (int b = 0; b < kBins; ++b)
      host[b] += host[static_cast<std::size_t>(r) * kBins + b];
  }
  cudaMemcpy(out, host, row, cudaMemcpyHostToDevice);
  cudaSetDevice(previous);
}

}  // namespace exercise07
