// An adversarial answer to exercise 1 (lesson 07): a kernel after all, spelt __location__(global),
// which is how CUDA's own headers (crt/host_defines.h) define __global__: the answer check refuses
// the token __global__ and never sees it. Every rank's counts are staged into its row of the
// pinned host buffer, on its stream, as the copy record asks; but the host never waits and never
// adds: each rank's stream records an event after its copy, rank 0's stream waits for them all,
// and a kernel on rank 0's GPU adds the rows in 64 bits straight out of the pinned buffer (mapped
// into every GPU's address space by unified addressing) into out. Right on one GPU or several,
// sums past 2^32 included; no peer copy, no GPU-to-GPU copy in the record, and faster than the
// host's add (no host wait at all).
// How a correct grader should catch it: refuse __location__ (and __annotate__, which spells any
// attribute) by name, as __global__ is.
// expect: rejected: uses __location__ (an execution space or attribute spelt another way)
#pragma once

#include <cstddef>

#include "ranks_support.cuh"  // exercise07::Ranks (grading/)

namespace exercise07 {

constexpr int kBins = 256;

namespace detail {

__location__(global) void add_rows(const unsigned long long* rows, int count,
                                   unsigned long long* out) {
  const int b = static_cast<int>(threadIdx.x);
  unsigned long long sum = 0;
  for (int r = 0; r < count; ++r)
    sum += rows[r * kBins + b];
  out[b] = sum;
}

}  // namespace detail

inline void host_combine(const Ranks& ranks, const unsigned long long* const* partials,
                         unsigned long long* host, unsigned long long* out) {
  const int g = ranks.count();
  std::vector<cudaEvent_t> landed(static_cast<std::size_t>(g));
  for (int r = 0; r < g; ++r) {
    cudaSetDevice(ranks.devices[r]);
    cudaMemcpyAsync(host + r * kBins, partials[r], kBins * sizeof(unsigned long long),
                    cudaMemcpyDeviceToHost, ranks.streams[r]);
    cudaEventCreateWithFlags(&landed[r], cudaEventDisableTiming);
    cudaEventRecord(landed[r], ranks.streams[r]);
  }
  cudaSetDevice(ranks.devices[0]);
  for (int r = 0; r < g; ++r)
    cudaStreamWaitEvent(ranks.streams[0], landed[r], 0);
  detail::add_rows<<<1, kBins, 0, ranks.streams[0]>>>(host, g, out);
  for (int r = 0; r < g; ++r) {
    cudaSetDevice(ranks.devices[r]);
    cudaEventDestroy(landed[r]);
  }
  cudaSetDevice(ranks.devices[0]);
}

}  // namespace exercise07
