// v0: the source's first GPU program, one global atomicAdd per byte.
#pragma once

#include <cstddef>
#include <cstdint>

#include "launch.hpp"
#include "settings.cuh"

namespace lesson01 {

// v0 global atomics (the source's first GPU program): every byte is one atomicAdd on one of 256
// 32-bit counters in global memory. Tens of thousands of threads (2 x 132 x 256 on the H200)
// share 256 addresses.
__global__ void global_atomics_kernel(const std::uint8_t* data, std::size_t n, unsigned int* bins) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    atomicAdd(&bins[data[i]], 1u);
  }
}

inline void histogram_global_atomics(const std::uint8_t* data, std::size_t n, unsigned int* bins,
                                     Launch launch = {}) {
  launch_counting(global_atomics_kernel, source_grid(), kSourceThreads, data, n, bins, launch);
}

}  // namespace lesson01
