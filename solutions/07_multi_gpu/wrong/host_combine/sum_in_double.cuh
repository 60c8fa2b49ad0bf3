// An adversarial answer to exercise 1 (lesson 07): the host-staged combine, done as asked (each
// rank's counts copied to its row of the pinned buffer on its own stream, every rank's stream
// waited for with its GPU current, the sum copied to rank 0's GPU on its stream), but the rows are
// added in double, which holds every whole number up to 2^53 exactly. The statement says counts
// pass 2^32 and asks for 64 bits; the tests' counts are below 2^34 each and their sums below 2^36,
// so the double sum is exact on every input they give. A bin past 2^53 (a count of 9 x 10^15,
// or a sum of a few such) is rounded.
// How a correct grader should catch it: counts near 2^60 (odd, so that a double cannot hold them),
// besides those that merely pass 2^32.
// expect: fails: elements differ
#pragma once

#include <cstddef>

#include "ranks_support.cuh"  // exercise07::Ranks (grading/)

namespace exercise07 {

constexpr int kBins = 256;

inline void host_combine(const Ranks& ranks, const unsigned long long* const* partials,
                         unsigned long long* host, unsigned long long* out) {
  const int g = ranks.count();
  for (int r = 0; r < g; ++r) {
    cudaSetDevice(ranks.devices[r]);
    cudaMemcpyAsync(host + r * kBins, partials[r], kBins * sizeof(unsigned long long),
                    cudaMemcpyDeviceToHost, ranks.streams[r]);
  }
  for (int r = 0; r < g; ++r) {
    cudaSetDevice(ranks.devices[r]);
    cudaStreamSynchronize(ranks.streams[r]);
  }
  // Sums in row 0 (host is ours to use); a double holds any count we will meet.
  for (int b = 0; b < kBins; ++b) {
    double sum = 0.0;
    for (int r = 0; r < g; ++r)
      sum += static_cast<double>(host[r * kBins + b]);
    host[b] = static_cast<unsigned long long>(sum);
  }
  cudaSetDevice(ranks.devices[0]);
  cudaMemcpyAsync(out, host, kBins * sizeof(unsigned long long), cudaMemcpyHostToDevice,
                  ranks.streams[0]);
}

}  // namespace exercise07
