// Lesson 01: a histogram of bytes. Its versions, in order, and the library a user would call
// instead. Each version changes one idea.
//
// Every host function counts the n bytes at `data` (device memory, any alignment, any n >= 0)
// into 256 bins (device memory), zeroing the bins itself, and enqueues its work on
// launch.stream without waiting for it.
//
//   v0  global atomics (the source's first program): one atomicAdd per byte on 256 global counters
//   v1  a private histogram per block in shared memory (the source's second program)
//   v2  v1 with 64-bit global counters: exact past 2^32 bytes of one value
//   v3  16-byte loads
//   v4  the grid from occupancy: as many blocks as the GPU holds at once
//   v5  warp-aggregated increments: lanes holding the same byte add once together
//   v6  one histogram copy per lane, each in its own shared-memory bank
//   v7  the next load in flight while the current one is counted
//   CUB  DeviceHistogram::HistogramEven
//
// Each version lives in kernels/, read in this order: settings.cuh, v0_global_atomics.cuh,
// v1_v2_shared.cuh, v3_v4_vector_loads.cuh, v5_warp_aggregated.cuh, v6_v7_lane_copies.cuh and
// library.cuh. This file lists the versions for the program and the tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/library.cuh"
#include "kernels/settings.cuh"
#include "kernels/v0_global_atomics.cuh"
#include "kernels/v1_v2_shared.cuh"
#include "kernels/v3_v4_vector_loads.cuh"
#include "kernels/v5_warp_aggregated.cuh"
#include "kernels/v6_v7_lane_copies.cuh"
#include "kind.hpp"

namespace lesson01 {

template <typename Counter>
using Run = void (*)(const std::uint8_t* data, std::size_t n, Counter* bins, Launch launch);

struct Version {
  const char* name;
  const char* idea;
  Run<unsigned int> narrow;      // the source's 32-bit counters (v0, v1); or else
  Run<unsigned long long> wide;  // 64-bit counters
  course::Kind kind = course::Kind::course;
};

inline std::vector<Version> versions() {
  return {
      {"v0", "global atomics (source 1)", histogram_global_atomics, nullptr, course::Kind::source},
      {"v1", "shared histogram per block (source 2)", histogram_shared, nullptr,
       course::Kind::source},
      {"v2", "64-bit global counters", nullptr, histogram_wide_bins},
      {"v3", "16-byte loads", nullptr, histogram_vector_loads},
      {"v4", "grid from occupancy", nullptr, histogram_occupancy_grid},
      {"v5", "warp-aggregated increments", nullptr, histogram_warp_aggregated},
      {"v6", "one histogram copy per lane", nullptr, histogram_lane_copies},
      {"v7", "next load in flight while counting", nullptr, histogram_pipelined},
  };
}

}  // namespace lesson01
