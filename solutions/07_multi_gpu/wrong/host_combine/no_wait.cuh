// A wrong answer to exercise 1 (lesson 07): the copies are enqueued, but the host adds the rows
// without waiting for the ranks' streams, so it reads what was there before the counts landed.
// expect: fails: elements differ
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
  // Each copy joins its rank's stream, behind the work that writes the partial.
  for (int r = 0; r < g; ++r) {
    cudaSetDevice(ranks.devices[r]);
    cudaMemcpyAsync(host + static_cast<std::size_t>(r) * kBins, partials[r],
                    kBins * sizeof(unsigned long long), cudaMemcpyDeviceToHost, ranks.streams[r]);
  }
  // Row 0 becomes the sum (64-bit counts: a bin passes 2^32 long before a byte count does).
  for (int r = 1; r < g; ++r) {
    for (int b = 0; b < kBins; ++b)
      host[b] += host[static_cast<std::size_t>(r) * kBins + b];
  }
  cudaSetDevice(ranks.devices[0]);
  // Synchronous: `host` is the caller's, and may be reused as soon as this returns.
  cudaMemcpy(out, host, kBins * sizeof(unsigned long long), cudaMemcpyHostToDevice);
  cudaSetDevice(previous);
}

}  // namespace exercise07
