// v3 and v4: 16-byte loads into one shared histogram per block, on the source's grid (v3) and on
// the grid that fills the GPU (v4); and what v5 to v7 read the bytes with (for_each_byte,
// count_vector).
#pragma once

#include <cstddef>
#include <cstdint>

#include "launch.hpp"
#include "settings.cuh"
#include "vector_loads.cuh"

namespace lesson01 {

// v3 on read the bytes 16 at a time, with course::Aligned16 (common/vector_loads.cuh) splitting
// them into an unaligned head, a body of 16-byte vectors, and a tail.
using Aligned16 = course::Aligned16<std::uint8_t>;

// Hands the 16 bytes of v to count(byte).
template <typename Count>
__device__ __forceinline__ void count_vector(const uint4& v, Count count) {
  for (unsigned int word : {v.x, v.y, v.z, v.w}) {
#pragma unroll
    for (int k = 0; k < 4; ++k)
      count((word >> (8 * k)) & 0xFFu);
  }
}

// Calls count(byte) for every byte of data[0, n): each thread of the grid reads every
// (grid size)-th uint4 of the body, and the first threads take the head and tail.
template <typename Count>
__device__ __forceinline__ void for_each_byte(const std::uint8_t* data, std::size_t n,
                                              Count count) {
  const Aligned16 bytes(data, n);
  const std::size_t thread = course::first_index();
  const std::size_t threads = course::grid_stride();
  for (std::size_t i = thread; i < bytes.vectors; i += threads) {
    count_vector(bytes.body()[i], count);
  }
  bytes.for_each_edge(thread, count);
}

// A block's one histogram in shared memory, from v3 on: zeroed and merged by all the block's
// threads together, whatever the block size; bins that stayed zero cost no global atomic.
struct BlockBins {
  unsigned int counts[kBins];

  __device__ void zero() {
    for (int b = threadIdx.x; b < kBins; b += blockDim.x)
      counts[b] = 0;
  }
  __device__ void merge_into(unsigned long long* bins) const {
    for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
      if (counts[b] != 0) atomicAdd(&bins[b], static_cast<unsigned long long>(counts[b]));
    }
  }
};

// v3 16-byte loads: each thread reads a uint4 and counts its 16 bytes (v2: one byte per load),
// so a warp moves 512 bytes per load instruction instead of 32. Same block histogram as v2.
__global__ void vector_loads_kernel(const std::uint8_t* data, std::size_t n,
                                    unsigned long long* bins) {
  __shared__ BlockBins block_bins;
  block_bins.zero();
  __syncthreads();  // zeroed before counting
  for_each_byte(data, n, [&](unsigned int byte) { atomicAdd(&block_bins.counts[byte], 1u); });
  __syncthreads();  // counted before merging
  block_bins.merge_into(bins);
}

inline void histogram_vector_loads(const std::uint8_t* data, std::size_t n,
                                   unsigned long long* bins, Launch launch = {}) {
  launch_counting(vector_loads_kernel, source_grid(), kSourceThreads, data, n, bins, launch);
}

// v4 grid from occupancy: as many blocks as the GPU holds at once, asked of the CUDA runtime
// (v3: 2 per SM, the source's rule of thumb, which leaves most of each SM's warp slots empty and
// too few loads in flight to cover the memory's latency). Same kernel as v3.
inline void histogram_occupancy_grid(const std::uint8_t* data, std::size_t n,
                                     unsigned long long* bins, Launch launch = {}) {
  launch_resident<vector_loads_kernel, kSourceThreads>(data, n, bins, launch);
}

}  // namespace lesson01
