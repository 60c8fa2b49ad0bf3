// v5: warp-aggregated increments, the lanes holding the same byte adding once together.
#pragma once

#include <cstddef>
#include <cstdint>

#include "launch.hpp"
#include "settings.cuh"
#include "v3_v4_vector_loads.cuh"

namespace lesson01 {

// v5 warp-aggregated increments: the lanes of a warp holding the same byte find each other
// with __match_any_sync, and the lowest of them adds their number (v4: each lane added 1, and
// lanes on one counter were served one after another). Aimed at the worst case, all bytes
// equal: one atomic per warp instead of 32. __activemask() names the lanes running this line
// together; no branch separates it from __match_any_sync, so exactly those lanes reach it.
__global__ void warp_aggregated_kernel(const std::uint8_t* data, std::size_t n,
                                       unsigned long long* bins) {
  __shared__ BlockBins block_bins;
  block_bins.zero();
  __syncthreads();  // zeroed before counting
  const unsigned int lane = threadIdx.x % course::kWarpSize;
  for_each_byte(data, n, [&](unsigned int byte) {
    const unsigned int peers = __match_any_sync(__activemask(), byte);
    if (lane == static_cast<unsigned int>(__ffs(peers) - 1)) {
      atomicAdd(&block_bins.counts[byte], static_cast<unsigned int>(__popc(peers)));
    }
  });
  __syncthreads();  // counted before merging
  block_bins.merge_into(bins);
}

inline void histogram_warp_aggregated(const std::uint8_t* data, std::size_t n,
                                      unsigned long long* bins, Launch launch = {}) {
  launch_resident<warp_aggregated_kernel, kSourceThreads>(data, n, bins, launch);
}

}  // namespace lesson01
