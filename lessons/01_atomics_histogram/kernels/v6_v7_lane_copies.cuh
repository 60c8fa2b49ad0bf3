// v6 and v7: one copy of the histogram per lane, in its own shared-memory bank (v6), and the
// next load in flight while the current one is counted (v7, which lesson 07 runs on every GPU).
#pragma once

#include <cstddef>
#include <cstdint>

#include "launch.hpp"
#include "settings.cuh"
#include "v3_v4_vector_loads.cuh"

namespace lesson01 {

// A block's 32 copies of the histogram, one per lane: counts[bin][lane]. Lane l's copy lies in
// shared-memory bank l for every bin (32 banks of 4 bytes), so the 32 lanes of a warp never
// share a bank, whatever their bytes. 32 KiB per block.
struct LaneCopies {
  unsigned int counts[kBins][course::kWarpSize];

  __device__ void zero() {
    for (int i = threadIdx.x; i < kBins * course::kWarpSize; i += blockDim.x)
      (&counts[0][0])[i] = 0;
  }
  // Lane l's copy: element [b * course::kWarpSize] of the result is lane l's counter for bin b.
  __device__ unsigned int* copy_of_this_lane() {
    return &counts[0][threadIdx.x % course::kWarpSize];
  }
  // Adds the 32 copies of each bin to `bins`. Thread t reads copy (k + t) % 32 at step k, so a
  // warp's 32 lanes read 32 different banks.
  __device__ void merge_into(unsigned long long* bins) const {
    for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
      unsigned long long sum = 0;
      for (int k = 0; k < course::kWarpSize; ++k)
        sum += counts[b][(k + b) % course::kWarpSize];
      if (sum != 0) atomicAdd(&bins[b], sum);
    }
  }
};

// v6 one copy of the histogram per lane: lane l counts only into copy l, which lives in bank l
// (v5: one copy per block, so lanes with different bytes in one bank, or with the same byte,
// were served one after another). No bank conflicts and no shared counters within a warp.
// 1024 threads: each block zeroes and merges 32 KiB, so fewer, larger blocks do it less often.
template <int kThreads>
__global__ void __launch_bounds__(kThreads)
    lane_copies_kernel(const std::uint8_t* data, std::size_t n, unsigned long long* bins) {
  __shared__ LaneCopies copies;
  copies.zero();
  __syncthreads();  // zeroed before counting
  unsigned int* mine = copies.copy_of_this_lane();
  for_each_byte(data, n,
                [&](unsigned int byte) { atomicAdd(&mine[byte * course::kWarpSize], 1u); });
  __syncthreads();  // counted before merging
  copies.merge_into(bins);
}

constexpr int kLaneCopiesThreads = 1024;

inline void histogram_lane_copies(const std::uint8_t* data, std::size_t n, unsigned long long* bins,
                                  Launch launch = {}) {
  launch_resident<lane_copies_kernel<kLaneCopiesThreads>, kLaneCopiesThreads>(data, n, bins,
                                                                              launch);
}

// ---- v7 -----------------------------------------------------------------------------------------

// v7 the next load in flight while this one is counted: each thread issues the load of its
// next uint4 before counting the current one, and its first load before zeroing the shared
// memory (v6: load, wait for it, count, then load again). The memory never waits on the
// counting, nor the counting on the memory. Same lane copies as v6.
template <int kThreads>
__global__ void __launch_bounds__(kThreads)
    pipelined_kernel(const std::uint8_t* data, std::size_t n, unsigned long long* bins) {
  __shared__ LaneCopies copies;
  const Aligned16 bytes(data, n);
  const std::size_t thread = course::first_index();
  const std::size_t threads = course::grid_stride();
  uint4 next{};
  if (thread < bytes.vectors) next = bytes.body()[thread];  // in flight during the zeroing
  copies.zero();
  __syncthreads();  // zeroed before counting
  unsigned int* mine = copies.copy_of_this_lane();
  auto count = [&](unsigned int byte) { atomicAdd(&mine[byte * course::kWarpSize], 1u); };
  for (std::size_t i = thread; i < bytes.vectors; i += threads) {
    const uint4 current = next;
    if (i + threads < bytes.vectors) next = bytes.body()[i + threads];  // before counting
    count_vector(current, count);
  }
  bytes.for_each_edge(thread, count);
  __syncthreads();  // counted before merging
  copies.merge_into(bins);
}

constexpr int kPipelinedThreads = 1024;

inline void histogram_pipelined(const std::uint8_t* data, std::size_t n, unsigned long long* bins,
                                Launch launch = {}) {
  launch_resident<pipelined_kernel<kPipelinedThreads>, kPipelinedThreads>(data, n, bins, launch);
}

}  // namespace lesson01
