// A wrong answer to exercise 1 (lesson 07), of a kind written against the grader itself: the model
// answer, which also writes a file of its own (std::tmpfile and std::fputs, from <cstdio>, which
// an answer may include, and names no list refuses). Its function is inline: the compiler puts its
// code, the calls among it, into the harness's function that calls it. Caught by the objects
// check: a function of the harness's object may call only what the model answer's same function
// calls and the exercise allows (scripts/check_objects.py).
// expect: objects: calls tmpfile
#pragma once

#include <cstddef>
#include <cstdio>

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
  // The host reads nothing before every copy has landed.
  for (int r = 0; r < g; ++r) {
    cudaSetDevice(ranks.devices[r]);
    cudaStreamSynchronize(ranks.streams[r]);
  }
  // Row 0 becomes the sum (64-bit counts: a bin passes 2^32 long before a byte count does).
  for (int r = 1; r < g; ++r) {
    for (int b = 0; b < kBins; ++b)
      host[b] += host[static_cast<std::size_t>(r) * kBins + b];
  }
  cudaSetDevice(ranks.devices[0]);
  // Synchronous: `host` is the caller's, and may be reused as soon as this returns.
  cudaMemcpy(out, host, kBins * sizeof(unsigned long long), cudaMemcpyHostToDevice);
  if (std::FILE* f = std::tmpfile()) {
    std::fputs("written by an answer\n", f);
    std::fclose(f);
  }
  cudaSetDevice(previous);
}

}  // namespace exercise07
