// v8, two passes to the stretch.
//
// v7's scatter sends a tile of 4096 keys to some 900 regions, runs of four or five keys, so that
// nearly every store is a sector of its own; and each of its build blocks reads its whole region,
// four stretches' keys, to find its own. v8 takes the keys all the way to their stretch in two
// passes of few buckets each, as a radix sort takes a wide key one digit at a time: first by
// region (2^kFineShift stretches), then, within its region, by stretch. One count of every
// stretch's keys, made first, gives each bucket its place, and a block reserves its run in a
// bucket with one atomicAdd on the bucket's cursor, so there are no per-tile counts to scan. The
// order of the runs within a bucket is whichever block came first: the build keeps the largest
// index of a key wherever it sits, and a find carries its query's place. Each build block then
// reads its own keys and no others, once.
#pragma once

#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "../reference.hpp"
#include "check.hpp"
#include "launch.hpp"
#include "settings.cuh"
#include "v4_v5_open.cuh"
#include "v6_partitioned.cuh"
#include "v7_stretches.cuh"

namespace lesson04 {

constexpr std::uint32_t kFineShift = 6;  // 64 stretches a region, unless there are very many
constexpr std::uint32_t kMaxStretches = kMaxRegions * kMaxRegions;  // both passes: <= 1024 buckets
constexpr std::uint32_t kSharedStretchCounts = 16384;  // stretches counted in shared memory
constexpr int kPlanThreads = 1024;

// How v8 cuts a table: `count` stretches of `windows` windows (the last may be short), grouped
// `fine` (a power of two) to a region; the first pass's tiles of kPartitionTile keys.
struct TwoPass {
  std::uint32_t table_windows;
  std::uint32_t windows;
  std::uint32_t count;
  std::uint32_t fine;
  std::uint32_t regions;
  std::uint32_t tiles;
  FastDivide by_table;       // table_windows: a key's home window
  FastDivide by_stretch;     // windows: the window's stretch
  std::uint32_t fine_shift;  // log2(fine): the stretch's region
  // The plan's words in PartitionScratch::plan, in order: each stretch's count, each stretch's
  // first place (and n), each region's cursor, each stretch's cursor, each region's first tile
  // of the second pass (and their total).
  __host__ __device__ std::size_t counts() const { return 0; }
  __host__ __device__ std::size_t starts() const { return count; }
  __host__ __device__ std::size_t region_cursors() const { return starts() + count + 1; }
  __host__ __device__ std::size_t stretch_cursors() const { return region_cursors() + regions; }
  __host__ __device__ std::size_t tile_bases() const { return stretch_cursors() + count; }
  __host__ __device__ std::size_t words() const { return tile_bases() + regions + 1; }
};

inline TwoPass two_pass_for(std::size_t capacity, std::size_t n, std::size_t windows) {
  const std::size_t table_windows = capacity / kWindow;
  windows = std::min(std::max<std::size_t>(windows, 1), table_windows);
  windows = std::max<std::size_t>(windows, (table_windows + kMaxStretches - 1) / kMaxStretches);
  const std::size_t count = (table_windows + windows - 1) / windows;
  std::uint32_t fine_shift = kFineShift;
  while ((std::size_t{1} << fine_shift) * kMaxRegions < count)
    ++fine_shift;
  const std::size_t fine = std::size_t{1} << fine_shift;
  return {static_cast<std::uint32_t>(table_windows),
          static_cast<std::uint32_t>(windows),
          static_cast<std::uint32_t>(count),
          static_cast<std::uint32_t>(fine),
          static_cast<std::uint32_t>((count + fine - 1) / fine),
          static_cast<std::uint32_t>((n + kPartitionTile - 1) / kPartitionTile),
          FastDivide(static_cast<std::uint32_t>(table_windows)),
          FastDivide(static_cast<std::uint32_t>(windows)),
          fine_shift};
}

__device__ inline std::uint32_t home_window(const OpenView& table, const TwoPass& p,
                                            std::uint32_t key) {
  return home_slot(table.hash, key, p.by_table);
}

__device__ inline std::uint32_t stretch_of_key(const OpenView& table, const TwoPass& p,
                                               std::uint32_t key) {
  return p.by_stretch.quotient(home_window(table, p, key));
}

// Counts each stretch's keys: in shared memory, added to the global counts once a block, or, for
// a table of more stretches than shared memory counts, straight into the global counts.
__global__ void stretch_count_kernel(const std::uint32_t* keys, std::size_t n, OpenView table,
                                     TwoPass p, std::uint32_t* counts) {
  extern __shared__ std::uint32_t tally[];
  const bool in_shared = p.count <= kSharedStretchCounts;
  if (in_shared) {
    for (std::uint32_t b = threadIdx.x; b < p.count; b += blockDim.x)
      tally[b] = 0;
  }
  __syncthreads();
  constexpr int kBatch = 8;  // loads in flight a thread
  const std::size_t stride = course::grid_stride();
  for (std::size_t base = course::first_index(); base < n; base += kBatch * stride) {
    std::uint32_t key[kBatch];
#pragma unroll
    for (int q = 0; q < kBatch; ++q)
      if (base + q * stride < n) key[q] = keys[base + q * stride];
#pragma unroll
    for (int q = 0; q < kBatch; ++q) {
      if (base + q * stride >= n) continue;
      const std::uint32_t s = stretch_of_key(table, p, key[q]);
      if (in_shared) {
        atomicAdd(&tally[s], 1u);
      } else {
        atomicAdd(&counts[s], 1u);
      }
    }
  }
  if (!in_shared) return;
  __syncthreads();
  for (std::uint32_t b = threadIdx.x; b < p.count; b += blockDim.x)
    if (tally[b] != 0) atomicAdd(&counts[b], tally[b]);
}

// One block: each stretch's first place (an exclusive scan of the counts), the cursors the passes
// reserve their runs from, and where each region's tiles start among the second pass's blocks.
__global__ void two_pass_plan_kernel(TwoPass p, std::uint32_t* plan) {
  using Scan = cub::BlockScan<std::uint32_t, kPlanThreads>;
  __shared__ typename Scan::TempStorage scan;
  std::uint32_t* starts = plan + p.starts();
  std::uint32_t total = 0;
  for (std::uint32_t base = 0; base < p.count; base += kPlanThreads) {
    const std::uint32_t s = base + threadIdx.x;
    std::uint32_t first = s < p.count ? plan[p.counts() + s] : 0;
    std::uint32_t all = 0;
    Scan(scan).ExclusiveSum(first, first, all);
    __syncthreads();
    if (s < p.count) {
      starts[s] = total + first;
      plan[p.stretch_cursors() + s] = total + first;
    }
    total += all;
  }
  if (threadIdx.x == 0) starts[p.count] = total;
  __syncthreads();
  const std::uint32_t r = threadIdx.x;  // regions <= kMaxRegions = kPlanThreads
  std::uint32_t tiles = 0;
  if (r < p.regions) {
    const std::uint32_t first = starts[r * p.fine];
    const std::uint32_t end = starts[min((r + 1) * p.fine, p.count)];
    plan[p.region_cursors() + r] = first;
    tiles = (end - first + kPartitionTile - 1) / kPartitionTile;
  }
  std::uint32_t all = 0;
  Scan(scan).ExclusiveSum(tiles, tiles, all);
  if (r < p.regions) plan[p.tile_bases() + r] = tiles;
  if (r == 0) plan[p.tile_bases() + p.regions] = all;
}

// One pass: a block's tile of keys (with their indices; the first pass makes them from the keys'
// places) sent to their buckets, lined up by bucket in shared memory first, as v6 does, so that
// neighbouring threads store to neighbouring addresses. The first pass's bucket is the region, its
// tiles the input's; the second pass's bucket is the stretch within the region, and each of its
// blocks takes a tile of one region's keys.
template <bool kSecond>
__global__ void two_pass_scatter_kernel(const std::uint32_t* keys, const std::uint32_t* indices,
                                        std::size_t n, OpenView table, TwoPass p,
                                        std::uint32_t* plan, std::uint32_t* keys_out,
                                        std::uint32_t* indices_out) {
  __shared__ typename TileScan::TempStorage scan;
  __shared__ std::uint32_t tally[kMaxRegions];     // counts, then each bucket's first place in line
  __shared__ std::uint32_t out_base[kMaxRegions];  // a bucket's place in the output, less that
  __shared__ std::uint32_t line_key[kPartitionTile];
  __shared__ std::uint32_t line_index[kPartitionTile];
  std::size_t first = static_cast<std::size_t>(blockIdx.x) * kPartitionTile;
  std::size_t last = min(n, first + kPartitionTile);
  std::uint32_t region = 0;  // the second pass's: its buckets are this region's stretches
  std::uint32_t buckets = p.regions;
  std::uint32_t* cursors = plan + p.region_cursors();
  if (kSecond) {
    const std::uint32_t* tile_base = plan + p.tile_bases();
    if (blockIdx.x >= tile_base[p.regions]) return;
    std::uint32_t lo = 0;
    std::uint32_t hi = p.regions;  // the last region whose first tile is at or before this block
    while (hi - lo > 1) {
      const std::uint32_t mid = (lo + hi) / 2;
      if (tile_base[mid] <= blockIdx.x) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    region = lo;
    const std::uint32_t* starts = plan + p.starts();
    first = starts[region * p.fine] +
            static_cast<std::size_t>(blockIdx.x - tile_base[region]) * kPartitionTile;
    last = min(static_cast<std::size_t>(starts[min((region + 1) * p.fine, p.count)]),
               first + kPartitionTile);
    buckets = min(p.fine, p.count - region * p.fine);
    cursors = plan + p.stretch_cursors() + region * p.fine;
  }
  auto bucket_of = [&](std::uint32_t key) {
    const std::uint32_t s = stretch_of_key(table, p, key);
    return kSecond ? s - region * p.fine : s >> p.fine_shift;
  };
  for (std::uint32_t b = threadIdx.x; b < buckets; b += kThreads)
    tally[b] = 0;
  __syncthreads();
  std::uint32_t key[kPartitionItems];
  std::uint32_t index[kPartitionItems];
  std::uint32_t bucket[kPartitionItems];
  std::uint32_t rank[kPartitionItems];
#pragma unroll
  for (int j = 0; j < kPartitionItems; ++j) {
    const std::size_t i = first + j * kThreads + threadIdx.x;
    if (i < last) {
      key[j] = keys[i];
      index[j] = kSecond ? indices[i] : static_cast<std::uint32_t>(i);
    }
  }
#pragma unroll
  for (int j = 0; j < kPartitionItems; ++j) {
    if (first + j * kThreads + threadIdx.x >= last) continue;
    bucket[j] = bucket_of(key[j]);
    rank[j] = atomicAdd(&tally[bucket[j]], 1u);
  }
  __syncthreads();
  // Unsigned wrap-around is fine: out_base[b] + a place in line is a place in the output.
  bucket_places(scan, tally, buckets,
                [&](std::uint32_t b, std::uint32_t count, std::uint32_t in_line) {
                  if (count != 0) out_base[b] = atomicAdd(&cursors[b], count) - in_line;
                });
#pragma unroll
  for (int j = 0; j < kPartitionItems; ++j) {
    if (first + j * kThreads + threadIdx.x >= last) continue;
    const std::uint32_t at = tally[bucket[j]] + rank[j];
    line_key[at] = key[j];
    line_index[at] = index[j];
  }
  __syncthreads();
  const auto in_tile = static_cast<std::uint32_t>(last - first);
  for (std::uint32_t at = threadIdx.x; at < in_tile; at += kThreads) {
    const std::uint32_t k = line_key[at];
    const std::uint32_t place = out_base[bucket_of(k)] + at;
    keys_out[place] = k;
    indices_out[place] = line_index[at];
  }
}

// The count, the plan and the two passes: afterwards s.answers() holds the keys in stretch order
// and s.fourth() where each came from; the plan's starts say where each stretch's keys begin.
inline void partition_to_stretches(const std::uint32_t* keys, std::size_t n, OpenView view,
                                   const TwoPass& p, PartitionScratch& s, cudaStream_t stream) {
  std::uint32_t* plan = s.plan(p.words());
  CUDA_CHECK(cudaMemsetAsync(plan + p.counts(), 0, p.count * sizeof(std::uint32_t), stream));
  // Up to 64 KiB of counts: past the 48 KiB a block has without asking, so ask.
  const std::size_t tally = p.count <= kSharedStretchCounts ? p.count * sizeof(std::uint32_t) : 0;
  course::allow_shared_bytes(stretch_count_kernel, tally);
  stretch_count_kernel<<<2 * course::sm_count(), kPlanThreads, tally, stream>>>(keys, n, view, p,
                                                                                plan + p.counts());
  CUDA_CHECK_LAUNCH();
  two_pass_plan_kernel<<<1, kPlanThreads, 0, stream>>>(p, plan);
  CUDA_CHECK_LAUNCH();
  two_pass_scatter_kernel<false>
      <<<p.tiles, kThreads, 0, stream>>>(keys, nullptr, n, view, p, plan, s.keys(), s.second());
  CUDA_CHECK_LAUNCH();
  two_pass_scatter_kernel<true><<<p.tiles + p.regions, kThreads, 0, stream>>>(
      s.keys(), s.second(), n, view, p, plan, s.answers(), s.fourth());
  CUDA_CHECK_LAUNCH();
}

// v8's build and find blocks: block b has stretch b and the keys the plan says are its.
struct OwnStretch {
  static constexpr bool kAllOwn = true;
  TwoPass p;
  const std::uint32_t* starts;
  __device__ Stretch operator()() const {
    Stretch s;
    s.first = blockIdx.x * p.windows;
    s.end = min(s.first + p.windows, p.table_windows);
    s.slots = (s.end - s.first) * kWindow;
    s.begin = starts[blockIdx.x];
    s.finish = starts[blockIdx.x + 1];
    return s;
  }
  __device__ std::uint32_t home_window(const OpenView& table, std::uint32_t key) const {
    return lesson04::home_window(table, p, key);
  }
};

// v8's finds answer straight into the query's place, which came with it.
struct ToQuery {
  const std::uint32_t* places;
  std::uint32_t* out;
  __device__ void operator()(std::size_t j, std::uint32_t answer) const { out[places[j]] = answer; }
};

inline TwoPass two_pass_for(const OpenTable& table, std::size_t n, const Launch& launch) {
  static const std::uint32_t windows = stretch_windows();
  const std::size_t asked = launch.region_bytes / (kWindow * sizeof(Slot));
  return two_pass_for(table.capacity(), n,
                      launch.region_bytes == 0 ? windows : std::min<std::size_t>(asked, windows));
}

inline void insert_two_pass(const std::uint32_t* keys, std::size_t n, OpenTable& table,
                            Launch launch) {
  require_keys(n, kMaxKeys);
  const TwoPass p = two_pass_for(table, n, launch);
  const std::size_t shared = static_cast<std::size_t>(p.windows) * kWindow * sizeof(Slot);
  course::allow_shared_bytes(stretch_build_kernel<OwnStretch>, shared);
  with_scratch(n, Regions{}, launch, [&](PartitionScratch& s) {
    partition_to_stretches(keys, n, table.view(), p, s, launch.stream);
    std::uint32_t* spill_count = s.spill_count(true);
    CUDA_CHECK(cudaMemsetAsync(spill_count, 0, sizeof(std::uint32_t), launch.stream));
    // The first pass's output is free again: it holds the list of spilled keys.
    stretch_build_kernel<<<p.count, kBuildThreads, shared, launch.stream>>>(
        s.answers(), s.fourth(), table.view(), OwnStretch{p, s.plan(p.words()) + p.starts()},
        s.keys(), spill_count);
    CUDA_CHECK_LAUNCH();
    spilled_insert_kernel<<<course::sm_count(), kThreads, 0, launch.stream>>>(
        s.answers(), s.fourth(), s.keys(), spill_count, table.view());
    CUDA_CHECK_LAUNCH();
  });
}

inline void find_two_pass(const std::uint32_t* queries, std::size_t n, OpenTable& table,
                          std::uint32_t* out, Launch launch) {
  require_keys(n, kMaxKeys);
  const TwoPass p = two_pass_for(table, n, launch);
  const std::size_t shared = static_cast<std::size_t>(p.windows) * kWindow * sizeof(Slot);
  course::allow_shared_bytes(stretch_find_kernel<OwnStretch, ToQuery>, shared);
  with_scratch(n, Regions{}, launch, [&](PartitionScratch& s) {
    partition_to_stretches(queries, n, table.view(), p, s, launch.stream);
    stretch_find_kernel<<<p.count, kBuildThreads, shared, launch.stream>>>(
        s.answers(), table.view(), OwnStretch{p, s.plan(p.words()) + p.starts()},
        ToQuery{s.fourth(), out});
    CUDA_CHECK_LAUNCH();
  });
}

}  // namespace lesson04
