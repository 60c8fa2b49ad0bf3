// An adversarial answer to exercise 2 (lesson 07): the ring, right in every copy, with the steps
// ordered by the host instead of by events. After each of the 2(G - 1) steps the host waits for
// every rank's stream, each with its own GPU current (so it is right where the ranks sit on
// different GPUs too). The statement says "order the steps with events, never the host"; the held
// streams cannot tell, since a host wait for every rank is a stronger order than the events', and
// the time bound cannot either: the steps of a ring wait for their neighbours anyway, so the host's
// waits add only a few tens of microseconds to the model answer's half a millisecond.
// How a correct grader should catch it: refuse the host's waits (cudaStreamSynchronize,
// cudaDeviceSynchronize, cudaEventSynchronize, cudaStreamQuery) in this exercise by name.
// expect: rejected: cudaStreamSynchronize
#pragma once

#include <cstddef>

#include "ranks_support.cuh"  // exercise07::Ranks and ring_copy (grading/)

namespace exercise07 {

namespace detail {

__global__ void add_into(float* data, const float* incoming, std::size_t count) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    data[i] += incoming[i];
  }
}

inline void wait_for_every_rank(const Ranks& ranks) {
  for (int r = 0; r < ranks.count(); ++r) {
    cudaSetDevice(ranks.devices[r]);
    cudaStreamSynchronize(ranks.streams[r]);
  }
}

}  // namespace detail

inline void ring_allreduce(const Ranks& ranks, float* const* data, float* const* scratch,
                           std::size_t n) {
  const int g = ranks.count();
  const std::size_t chunk = (n + g - 1) / g;
  auto begin_of = [&](int c) { return c * chunk < n ? c * chunk : n; };
  auto size_of = [&](int c) {
    const std::size_t b = begin_of(c);
    const std::size_t e = (c + 1) * chunk < n ? (c + 1) * chunk : n;
    return e - b;
  };
  // Reduce-scatter: at step s, rank r receives chunk (r - 1 - s) mod G from its left neighbour.
  for (int s = 0; s < g - 1; ++s) {
    for (int r = 0; r < g; ++r) {
      const int left = (r + g - 1) % g;
      const int c = ((r - 1 - s) % g + g) % g;
      cudaSetDevice(ranks.devices[r]);
      ring_copy(ranks, scratch[r], r, data[left] + begin_of(c), left, size_of(c), ranks.streams[r]);
      if (size_of(c) > 0) {
        const int blocks =
            static_cast<int>((size_of(c) + 255) / 256 < 4096 ? (size_of(c) + 255) / 256 : 4096);
        detail::add_into<<<blocks, 256, 0, ranks.streams[r]>>>(data[r] + begin_of(c), scratch[r],
                                                               size_of(c));
      }
    }
    detail::wait_for_every_rank(ranks);
  }
  // All-gather: at step s, rank r receives the finished chunk (r - s) mod G.
  for (int s = 0; s < g - 1; ++s) {
    for (int r = 0; r < g; ++r) {
      const int left = (r + g - 1) % g;
      const int c = ((r - s) % g + g) % g;
      cudaSetDevice(ranks.devices[r]);
      ring_copy(ranks, data[r] + begin_of(c), r, data[left] + begin_of(c), left, size_of(c),
                ranks.streams[r]);
    }
    detail::wait_for_every_rank(ranks);
  }
  cudaSetDevice(ranks.devices[0]);
}

}  // namespace exercise07
