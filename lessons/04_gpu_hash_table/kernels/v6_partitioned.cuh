// v6, the keys partitioned by table region.
//
// v5's probes land all over a table eight times the size of the H100's L2, so most of its
// sectors miss the L2 (ncu on the H100: docs/results/h100-80gb-hbm3/lesson04_ncu_v6.txt). v6
// first sorts the keys, roughly: by the region of the table their home window lies in, with one
// counting pass and one scatter, as radix-partitioned hash joins do. Then it runs v5's insert over
// the keys in that order. The grid works through the array from front to back, so at any moment
// its probes fall in one or two regions, and a region a fraction of the L2 is meant to stay there
// while it is filled, each of its sectors coming from DRAM once and going back once (on the H100,
// v6's insert still reads more than the table and its keys from DRAM: the same log). Finds do the
// same, and then put each answer back in its query's place.
#pragma once

#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "../reference.hpp"
#include "check.hpp"
#include "device_memory.hpp"
#include "launch.hpp"
#include "settings.cuh"
#include "v4_v5_open.cuh"

namespace lesson04 {

constexpr std::size_t kRegionL2Share = 4;  // a region is a quarter of the L2 unless told
constexpr int kPartitionItems = 16;        // keys per thread in the count and the scatter
constexpr int kPartitionTile = kThreads * kPartitionItems;  // keys per block: 4096
constexpr std::uint32_t kMaxRegions = 1024;  // regions x tiles stays below 2^31 (CUB's int count)

// How a table is cut: `count` regions of `per_region` of its v5 windows (the last may be short),
// and the keys into `tiles` tiles of kPartitionTile keys, one per block.
struct Regions {
  std::uint32_t windows;
  std::uint32_t per_region;
  std::uint32_t count;
  std::uint32_t tiles;
};

inline Regions regions_for(std::size_t capacity, std::size_t n, std::size_t region_bytes) {
  const std::size_t windows = capacity / kWindow;
  std::size_t per_region = std::max<std::size_t>(region_bytes / (kWindow * sizeof(Slot)), 1);
  per_region = std::max<std::size_t>(per_region, (windows + kMaxRegions - 1) / kMaxRegions);
  per_region = std::min(per_region, windows);  // a region larger than the table is the table
  return {static_cast<std::uint32_t>(windows), static_cast<std::uint32_t>(per_region),
          static_cast<std::uint32_t>((windows + per_region - 1) / per_region),
          static_cast<std::uint32_t>((n + kPartitionTile - 1) / kPartitionTile)};
}

// The region a key's probe starts in: v5's home window, over the windows a region holds.
__device__ inline std::uint32_t region_of(const OpenView& table, const Regions& r,
                                          std::uint32_t key) {
  return home(table, key, r.windows) / r.per_region;
}

// This block's tile of keys, kPartitionItems to a thread, every load issued before any is used.
// Keys past n are left unread; `in(j)` says whether key j is there.
struct TileKeys {
  std::uint32_t key[kPartitionItems];
  std::size_t first;
  std::size_t n;
  __device__ std::size_t index(int j) const { return first + j * kThreads + threadIdx.x; }
  __device__ bool in(int j) const { return index(j) < n; }
};

__device__ inline TileKeys load_tile(const std::uint32_t* keys, std::size_t n) {
  TileKeys t;
  t.first = static_cast<std::size_t>(blockIdx.x) * kPartitionTile;
  t.n = n;
#pragma unroll
  for (int j = 0; j < kPartitionItems; ++j)
    if (t.in(j)) t.key[j] = keys[t.index(j)];
  return t;
}

// Pass 1: each block counts its tile's keys per region in shared memory, and writes its counts
// region-major (counts[region * tiles + tile]), so that one exclusive scan of the whole array
// gives each tile the place where its keys of each region start.
__global__ void region_count_kernel(const std::uint32_t* keys, std::size_t n, OpenView table,
                                    Regions r, std::uint32_t* counts) {
  extern __shared__ std::uint32_t tally[];  // r.count words
  for (std::uint32_t b = threadIdx.x; b < r.count; b += blockDim.x)
    tally[b] = 0;
  __syncthreads();
  const TileKeys t = load_tile(keys, n);
#pragma unroll
  for (int j = 0; j < kPartitionItems; ++j)
    if (t.in(j)) atomicAdd(&tally[region_of(table, r, t.key[j])], 1u);
  __syncthreads();
  for (std::uint32_t b = threadIdx.x; b < r.count; b += blockDim.x)
    counts[static_cast<std::size_t>(b) * r.tiles + blockIdx.x] = tally[b];
}

// The middle of a block's scatter (v6's and v8's), once its tile's keys are counted per bucket in
// tally: each count becomes its bucket's first place in the line-up (an exclusive scan), and
// reserve(bucket, count, first place) runs for each bucket, by the thread that scanned it. Returns
// after a barrier, so that the places can be read.
constexpr int kBucketsPerThread = kMaxRegions / kThreads;
using TileScan = cub::BlockScan<std::uint32_t, kThreads>;

template <typename Reserve>
__device__ void bucket_places(typename TileScan::TempStorage& scan, std::uint32_t* tally,
                              std::uint32_t buckets, Reserve&& reserve) {
  std::uint32_t counts[kBucketsPerThread];
  std::uint32_t in_line[kBucketsPerThread];
#pragma unroll
  for (int q = 0; q < kBucketsPerThread; ++q) {
    const std::uint32_t b = threadIdx.x * kBucketsPerThread + q;
    counts[q] = b < buckets ? tally[b] : 0;
  }
  TileScan(scan).ExclusiveSum(counts, in_line);
  __syncthreads();
#pragma unroll
  for (int q = 0; q < kBucketsPerThread; ++q) {
    const std::uint32_t b = threadIdx.x * kBucketsPerThread + q;
    if (b >= buckets) continue;
    tally[b] = in_line[q];
    reserve(b, counts[q], in_line[q]);
  }
  __syncthreads();
}

// Pass 2: each block reads its tile again and sends every key to its region's stretch of the
// output, at the place the scan gave this tile. Written straight from the registers, the keys of
// one warp would go to as many stretches as they have regions, 4 bytes to each: so the block
// first lines its tile up by region in shared memory (each key's rank among its region's keys
// from a shared counter, each region's first place from a scan of the counts), and then the
// threads copy it out in order, neighbours to neighbouring addresses. Building (kFind false), key
// i's index goes with it: the key has moved, and its value is where it was. Finding, the query's
// new place is kept instead (moved_to[i]), to put its answer back.
template <bool kFind>
__global__ void region_scatter_kernel(const std::uint32_t* keys, std::size_t n, OpenView table,
                                      Regions r, const std::uint32_t* starts,
                                      std::uint32_t* keys_out, std::uint32_t* indices_or_places) {
  __shared__ typename TileScan::TempStorage scan;
  __shared__ std::uint32_t tally[kMaxRegions];  // counts, then each region's first place in line
  __shared__ std::uint32_t out_start[kMaxRegions];  // each region's first place in keys_out
  __shared__ std::uint32_t line_key[kPartitionTile];
  __shared__ std::uint32_t line_index[kPartitionTile];
  for (std::uint32_t b = threadIdx.x; b < r.count; b += kThreads) {
    tally[b] = 0;
    out_start[b] = starts[static_cast<std::size_t>(b) * r.tiles + blockIdx.x];
  }
  __syncthreads();
  const TileKeys t = load_tile(keys, n);
  std::uint32_t region[kPartitionItems];
  std::uint32_t rank[kPartitionItems];
#pragma unroll
  for (int j = 0; j < kPartitionItems; ++j) {
    if (!t.in(j)) continue;
    region[j] = region_of(table, r, t.key[j]);
    rank[j] = atomicAdd(&tally[region[j]], 1u);
  }
  __syncthreads();
  bucket_places(scan, tally, r.count, [](std::uint32_t, std::uint32_t, std::uint32_t) {});
#pragma unroll
  for (int j = 0; j < kPartitionItems; ++j) {
    if (!t.in(j)) continue;
    const std::uint32_t in_line = tally[region[j]] + rank[j];
    line_key[in_line] = t.key[j];
    line_index[in_line] = static_cast<std::uint32_t>(t.index(j));
  }
  __syncthreads();
  const std::size_t left = n - t.first;
  const std::uint32_t in_tile = left < kPartitionTile ? static_cast<std::uint32_t>(left)
                                                      : static_cast<std::uint32_t>(kPartitionTile);
  for (std::uint32_t s = threadIdx.x; s < in_tile; s += kThreads) {
    const std::uint32_t key = line_key[s];
    const std::uint32_t b = region_of(table, r, key);
    const std::uint32_t place = out_start[b] + (s - tally[b]);
    keys_out[place] = key;
    if (kFind) {
      indices_or_places[line_index[s]] = place;
    } else {
      indices_or_places[place] = line_index[s];
    }
  }
}

// After the finds, in the queries' order: answer i is at its query's new place.
__global__ void put_back_kernel(const std::uint32_t* answers, const std::uint32_t* moved_to,
                                std::size_t n, std::uint32_t* out) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride())
    out[i] = answers[moved_to[i]];
}

// Key i's value after the scatter: the index that came with it.
struct MovedValues {
  const std::uint32_t* indices;
  __device__ std::uint32_t operator[](std::size_t i) const { return indices[i]; }
};

// v6's to v8's GPU memory: the keys in region order, their indices (building) or new places
// (finding), the answers in region order (v7's build: its list of spilled keys; v8's second pass:
// the keys in stretch order, with their indices in `fourth`), the counts, CUB's scan space, and
// v8's plan (`plan`, its counts and places). It grows when a call needs more, so the lesson's
// program makes one before the timed runs and passes it in Launch::scratch.
class PartitionScratch {
 public:
  void reserve(std::size_t n, const Regions& r) {
    if (keys_.size() < n) {
      keys_ = course::DeviceBuffer<std::uint32_t>(n);
      second_ = course::DeviceBuffer<std::uint32_t>(n);
      answers_ = course::DeviceBuffer<std::uint32_t>(n);
      fourth_ = course::DeviceBuffer<std::uint32_t>(n);
    }
    const std::size_t counts = static_cast<std::size_t>(r.count) * r.tiles;
    if (counts_.size() < counts) counts_ = course::DeviceBuffer<std::uint32_t>(counts);
    std::size_t bytes = 0;
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, counts_.data(), counts_.data(),
                                             static_cast<int>(counts)));
    if (temp_.size() < bytes) temp_ = course::DeviceBuffer<unsigned char>(bytes);
  }
  std::uint32_t* keys() { return keys_.data(); }
  std::uint32_t* second() { return second_.data(); }
  std::uint32_t* answers() { return answers_.data(); }
  std::uint32_t* fourth() { return fourth_.data(); }
  std::uint32_t* counts() { return counts_.data(); }
  std::uint32_t* plan(std::size_t words) {
    if (plan_.size() < words) plan_ = course::DeviceBuffer<std::uint32_t>(words);
    return plan_.data();
  }
  unsigned char* temp() { return temp_.data(); }
  std::size_t temp_bytes() const { return temp_.size(); }
  // v7's count of spilled keys, or v8's (two_pass true).
  std::uint32_t* spill_count(bool two_pass = false) { return spill_count_.data() + two_pass; }

 private:
  course::DeviceBuffer<std::uint32_t> keys_{1};
  course::DeviceBuffer<std::uint32_t> second_{1};
  course::DeviceBuffer<std::uint32_t> answers_{1};
  course::DeviceBuffer<std::uint32_t> fourth_{1};
  course::DeviceBuffer<std::uint32_t> plan_{1};
  course::DeviceBuffer<std::uint32_t> counts_{1};
  course::DeviceBuffer<unsigned char> temp_{1};
  course::DeviceBuffer<std::uint32_t> spill_count_{2};
};

inline std::size_t region_bytes_for(const Launch& launch) {
  static const std::size_t l2 = course::l2_bytes();
  return launch.region_bytes > 0 ? launch.region_bytes : l2 / kRegionL2Share;
}

// The count, the scan and the scatter: afterwards s.keys() holds the keys in region order, and
// s.second() their indices (kFind false) or, for each query, its new place (kFind true).
template <bool kFind>
void partition_by_region(const std::uint32_t* keys, std::size_t n, OpenView view, const Regions& r,
                         PartitionScratch& s, cudaStream_t stream) {
  region_count_kernel<<<r.tiles, kThreads, r.count * sizeof(std::uint32_t), stream>>>(
      keys, n, view, r, s.counts());
  CUDA_CHECK_LAUNCH();
  std::size_t bytes = s.temp_bytes();
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(s.temp(), bytes, s.counts(), s.counts(),
                                           static_cast<int>(r.count * r.tiles), stream));
  region_scatter_kernel<kFind>
      <<<r.tiles, kThreads, 0, stream>>>(keys, n, view, r, s.counts(), s.keys(), s.second());
  CUDA_CHECK_LAUNCH();
}

// v6's insert, after partition_by_region<false>: v5's insert over the keys in region order.
inline void insert_partitioned_keys(std::size_t n, OpenTable& table, PartitionScratch& s,
                                    const Launch& launch) {
  tile_insert_kernel<kWindow, MovedValues>
      <<<open_grid(tile_insert_kernel<kWindow, MovedValues>, n * kWindow, launch), kThreads, 0,
         launch.stream>>>(s.keys(), n, table.view(), MovedValues{s.second()});
  CUDA_CHECK_LAUNCH();
}

// Runs `work` on launch.scratch, or on scratch of its own (freed after the GPU is done with it).
template <typename Work>
void with_scratch(std::size_t n, const Regions& r, const Launch& launch, Work&& work) {
  if (launch.scratch != nullptr) {
    launch.scratch->reserve(n, r);
    work(*launch.scratch);
    return;
  }
  PartitionScratch own;
  own.reserve(n, r);
  work(own);
  CUDA_CHECK(cudaStreamSynchronize(launch.stream));
}

inline void insert_partitioned(const std::uint32_t* keys, std::size_t n, OpenTable& table,
                               Launch launch) {
  require_keys(n, kMaxKeys);
  const Regions r = regions_for(table.capacity(), n, region_bytes_for(launch));
  with_scratch(n, r, launch, [&](PartitionScratch& s) {
    partition_by_region<false>(keys, n, table.view(), r, s, launch.stream);
    insert_partitioned_keys(n, table, s, launch);
  });
}

// v6's find: the queries partitioned the same way, v5's find over them in region order, each
// answer put back in its query's place.
inline void find_partitioned(const std::uint32_t* queries, std::size_t n, OpenTable& table,
                             std::uint32_t* out, Launch launch) {
  require_keys(n, kMaxKeys);
  const Regions r = regions_for(table.capacity(), n, region_bytes_for(launch));
  with_scratch(n, r, launch, [&](PartitionScratch& s) {
    partition_by_region<true>(queries, n, table.view(), r, s, launch.stream);
    tile_find_kernel<kWindow>
        <<<open_grid(tile_find_kernel<kWindow>, n * kWindow, launch), kThreads, 0, launch.stream>>>(
            s.keys(), n, table.view(), s.answers());
    CUDA_CHECK_LAUNCH();
    put_back_kernel<<<open_grid(put_back_kernel, n, launch), kThreads, 0, launch.stream>>>(
        s.answers(), s.second(), n, out);
    CUDA_CHECK_LAUNCH();
  });
}

}  // namespace lesson04
