// Lesson 01: a histogram of bytes. One kernel per version, in order, each followed by the host
// function that launches it; read from v0 down. Each version changes one idea.
//
// Every host function counts the n bytes at `data` (device memory, any alignment, any n >= 0)
// into 256 bins (device memory), zeroing the bins itself, and enqueues its work on
// launch.stream without waiting for it.
#pragma once

#include <cub/device/device_histogram.cuh>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "check.hpp"
#include "device_memory.hpp"
#include "kind.hpp"
#include "launch.hpp"
#include "reference.hpp"
#include "vector_loads.cuh"

namespace lesson01 {

// The seed's launch shape, kept by v0 to v3: 256 threads, one per bin (so v1's block zeroes and
// merges its histogram in one step per thread), and 2 blocks per SM (the seed's rule of thumb).
constexpr int kSeedThreads = 256;
constexpr int kSeedBlocksPerSm = 2;

inline int seed_grid() {
  return kSeedBlocksPerSm * course::sm_count();
}

// How to launch a version: on which stream, and with how many blocks. blocks == 0 keeps the
// version's own grid; the grid-size experiment (exercise 4, --blocks) sets it.
struct Launch {
  cudaStream_t stream = nullptr;
  int blocks = 0;
  int grid_or(int own) const { return blocks > 0 ? blocks : own; }
};

// The 256 counters, in an allocation of their own, `offset` bytes past a 4 KiB boundary. Where
// they lie changes v0's time: its atomics are served at the L2 cache, whose slices each serve
// their own addresses, so the counters' addresses decide how many slices share the work (the
// README's Version 0; lesson01 --bins-offset). The default, 0, keeps them in one 1 KiB-aligned
// block.
template <typename Counter>
class Counters {
 public:
  explicit Counters(std::size_t offset) : space_(2 * kPage) {
    const auto base = reinterpret_cast<std::uintptr_t>(space_.data());
    at_ = reinterpret_cast<Counter*>((base + kPage - 1) / kPage * kPage + offset);
  }
  Counter* data() { return at_; }
  void fill_bytes(unsigned char value) {
    CUDA_CHECK(cudaMemsetAsync(at_, value, kBins * sizeof(Counter)));
  }
  std::vector<Counter> download() const {
    std::vector<Counter> host(kBins);
    CUDA_CHECK(cudaMemcpy(host.data(), at_, kBins * sizeof(Counter), cudaMemcpyDeviceToHost));
    return host;
  }

 private:
  static constexpr std::size_t kPage = 4096;
  course::DeviceBuffer<unsigned char> space_;
  Counter* at_ = nullptr;
};

// What every host function below does: zero the bins (the kernels add to them), then launch
// kernel<<<grid, threads>>> on launch.stream (launch.blocks, if set, replaces grid).
template <typename Counter>
void launch_counting(void (*kernel)(const std::uint8_t*, std::size_t, Counter*), int grid,
                     int threads, const std::uint8_t* data, std::size_t n, Counter* bins,
                     const Launch& launch) {
  CUDA_CHECK(cudaMemsetAsync(bins, 0, kBins * sizeof(Counter), launch.stream));
  kernel<<<launch.grid_or(grid), threads, 0, launch.stream>>>(data, n, bins);
  CUDA_CHECK_LAUNCH();
}

// launch_counting with the grid that fills the GPU: as many blocks of kThreads as fit at once
// (v4 on). It is computed once per kernel (the course's programs use one GPU), so no query runs
// between the launches that are timed.
template <auto kKernel, int kThreads, typename Counter>
void launch_resident(const std::uint8_t* data, std::size_t n, Counter* bins, const Launch& launch) {
  static const int resident = course::occupancy_grid(kKernel, kThreads);
  launch_counting(kKernel, resident, kThreads, data, n, bins, launch);
}

// ---- v0 -----------------------------------------------------------------------------------------

// v0 global atomics (the seed's first GPU program): every byte is one atomicAdd on one of 256
// 32-bit counters in global memory. Hundreds of thousands of threads share 256 addresses.
__global__ void global_atomics_kernel(const std::uint8_t* data, std::size_t n, unsigned int* bins) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    atomicAdd(&bins[data[i]], 1u);
  }
}

inline void histogram_global_atomics(const std::uint8_t* data, std::size_t n, unsigned int* bins,
                                     Launch launch = {}) {
  launch_counting(global_atomics_kernel, seed_grid(), kSeedThreads, data, n, bins, launch);
}

// ---- v1 and v2 ----------------------------------------------------------------------------------

// v1 a private histogram per block in shared memory (the seed's second program): each block
// counts into its own 256 shared counters, then adds each to global memory once (v0: every byte
// went to global memory). v2 is the same kernel with 64-bit global counters.
// Requires blockDim.x == kBins: thread t zeroes and merges bin t.
template <typename Counter>
__global__ void shared_histogram_kernel(const std::uint8_t* data, std::size_t n, Counter* bins) {
  __shared__ unsigned int block_bins[kBins];
  block_bins[threadIdx.x] = 0;
  __syncthreads();  // every counter is zero before any thread counts
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    atomicAdd(&block_bins[data[i]], 1u);
  }
  __syncthreads();  // every count is in before the merge reads it
  atomicAdd(&bins[threadIdx.x], static_cast<Counter>(block_bins[threadIdx.x]));
}

inline void histogram_shared(const std::uint8_t* data, std::size_t n, unsigned int* bins,
                             Launch launch = {}) {
  launch_counting(shared_histogram_kernel<unsigned int>, seed_grid(), kSeedThreads, data, n, bins,
                  launch);
}

// v2 64-bit global counters: exact past 2^32 bytes of one value, where v1's 32-bit bins wrap.
// Only the merge touches them (256 atomics per block), so the wider type costs nothing. A
// block's own shared counters stay 32-bit: requires fewer than 2^32 bytes per block.
inline void histogram_wide_bins(const std::uint8_t* data, std::size_t n, unsigned long long* bins,
                                Launch launch = {}) {
  launch_counting(shared_histogram_kernel<unsigned long long>, seed_grid(), kSeedThreads, data, n,
                  bins, launch);
}

// ---- v3 and v4 ----------------------------------------------------------------------------------

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
  launch_counting(vector_loads_kernel, seed_grid(), kSeedThreads, data, n, bins, launch);
}

// v4 grid from occupancy: as many blocks as the GPU holds at once, asked of the CUDA runtime
// (v3: 2 per SM, the seed's rule of thumb, which leaves most of each SM's warp slots empty and
// too few loads in flight to cover the memory's latency). Same kernel as v3.
inline void histogram_occupancy_grid(const std::uint8_t* data, std::size_t n,
                                     unsigned long long* bins, Launch launch = {}) {
  launch_resident<vector_loads_kernel, kSeedThreads>(data, n, bins, launch);
}

// ---- v5 -----------------------------------------------------------------------------------------

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
  launch_resident<warp_aggregated_kernel, kSeedThreads>(data, n, bins, launch);
}

// ---- v6 -----------------------------------------------------------------------------------------

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

// ---- every version, in the table's order --------------------------------------------------

template <typename Counter>
using Run = void (*)(const std::uint8_t* data, std::size_t n, Counter* bins, Launch launch);

struct Version {
  const char* name;
  const char* idea;
  Run<unsigned int> narrow;      // the seed's 32-bit counters (v0, v1); or else
  Run<unsigned long long> wide;  // 64-bit counters
  course::Kind kind = course::Kind::course;
};

inline std::vector<Version> versions() {
  return {
      {"v0", "global atomics (seed 1)", histogram_global_atomics, nullptr, course::Kind::source},
      {"v1", "shared histogram per block (seed 2)", histogram_shared, nullptr,
       course::Kind::source},
      {"v2", "64-bit global counters", nullptr, histogram_wide_bins},
      {"v3", "16-byte loads", nullptr, histogram_vector_loads},
      {"v4", "grid from occupancy", nullptr, histogram_occupancy_grid},
      {"v5", "warp-aggregated increments", nullptr, histogram_warp_aggregated},
      {"v6", "one histogram copy per lane", nullptr, histogram_lane_copies},
      {"v7", "next load in flight while counting", nullptr, histogram_pipelined},
  };
}

// ---- the library --------------------------------------------------------------------------------

// CUB's DeviceHistogram::HistogramEven, as a user would call it: 257 levels 0, 1, ..., 256 make
// 256 bins of width 1, and the temporary storage is allocated once, outside the timed calls.
// Counter is unsigned int, CUB's fast path, when no bin can pass 2^32 (n < 2^32), and
// unsigned long long beyond: CUB's 64-bit counters take a slower path, so the choice matters.
template <typename Counter>
class CubHistogram {
 public:
  explicit CubHistogram(std::size_t n) : n_(n) {
    std::size_t bytes = 0;
    CUDA_CHECK(call(nullptr, bytes, nullptr, nullptr, nullptr));
    temp_ = course::DeviceBuffer<unsigned char>(bytes);
  }
  void operator()(const std::uint8_t* data, Counter* bins, cudaStream_t stream = nullptr) {
    std::size_t bytes = temp_.size();
    CUDA_CHECK(call(temp_.data(), bytes, data, bins, stream));
  }

 private:
  cudaError_t call(void* temp, std::size_t& bytes, const std::uint8_t* data, Counter* bins,
                   cudaStream_t stream) const {
    return cub::DeviceHistogram::HistogramEven(temp, bytes, data, bins, kBins + 1, 0, kBins,
                                               static_cast<long long>(n_), stream);
  }
  std::size_t n_;
  course::DeviceBuffer<unsigned char> temp_;
};

// Whether 32-bit counters are exact for n bytes: no bin can hold more than n.
inline bool narrow_counters_suffice(std::size_t n) {
  return n <= 0xFFFFFFFFull;
}

}  // namespace lesson01
