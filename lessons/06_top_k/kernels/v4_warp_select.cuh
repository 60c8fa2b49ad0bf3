// v4, for k <= 32: each warp keeps its top 32 in registers, one per lane, merged by bitonic steps
// over shuffles, in one pass over the input and one launch.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include <02_reduce/block_reduce.cuh>
#include "bits.hpp"
#include "check.hpp"
#include "device_memory.hpp"
#include "launch.hpp"
#include "settings.cuh"
#include "streaming.cuh"

namespace lesson06 {

constexpr int kWarpSelectThreads = 512;
constexpr std::size_t kWarpSelectMaxK = 32;
constexpr int kWarpSelectBatch = 2;  // 16-byte loads per thread at a time, as v3's sift

// The 32 lanes' values in descending order (lane 0 the largest): a bitonic sort over shuffles.
// Stage `size` sorts runs of size lanes, alternately down and up, so that each pair of runs is
// bitonic for the next stage; the last stage sorts all 32 downwards.
__device__ inline unsigned long long warp_sort_descending(unsigned long long v) {
  const unsigned lane = threadIdx.x % course::kWarpSize;
#pragma unroll
  for (unsigned size = 2; size <= course::kWarpSize; size *= 2) {
#pragma unroll
    for (unsigned stride = size / 2; stride > 0; stride /= 2) {
      const unsigned long long other = __shfl_xor_sync(course::kFullWarp, v, stride);
      const bool keep_larger = ((lane & stride) == 0) == ((lane & size) == 0);
      v = keep_larger ? (v > other ? v : other) : (v < other ? v : other);
    }
  }
  return v;
}

// The 32 largest of two descending lists of 32, descending. The larger of list[i] and
// batch[31 - i] is the top 32 of both, as a bitonic sequence; five half-cleaners sort it.
__device__ inline unsigned long long warp_merge(unsigned long long list, unsigned long long batch) {
  const unsigned lane = threadIdx.x % course::kWarpSize;
  const unsigned long long mirror = __shfl_sync(course::kFullWarp, batch, 31 - lane);
  unsigned long long v = list > mirror ? list : mirror;
#pragma unroll
  for (unsigned stride = course::kWarpSize / 2; stride > 0; stride /= 2) {
    const unsigned long long other = __shfl_xor_sync(course::kFullWarp, v, stride);
    v = (lane & stride) == 0 ? (v > other ? v : other) : (v < other ? v : other);
  }
  return v;
}

// A warp's list merged with its lanes' queues: the new list, and its k-th score. Out of line,
// with its arguments and results in registers: inlined at each of its calls, the sort and the
// merge would not fit in the instruction cache.
struct Merged {
  unsigned long long best;
  unsigned long long threshold;
};

__device__ __noinline__ Merged merge_queues(unsigned long long best, unsigned long long queued,
                                            int k) {
  best = warp_merge(best, warp_sort_descending(queued));
  return {best, __shfl_sync(course::kFullWarp, best, k - 1)};
}

// A warp's running top 32, one score per lane. An element that beats the k-th best waits in its
// lane's queue; when a lane whose queue is full gets another, the warp sorts the queues and merges
// them in, so a merge takes many elements once the threshold is high.
struct WarpTop {
  int k;
  unsigned long long best = 0;       // lane i: the (i + 1)-th largest score so far
  unsigned long long queued = 0;     // 0: this lane's queue is empty
  unsigned long long threshold = 0;  // the k-th largest score so far

  __device__ void flush() {
    const Merged merged = merge_queues(best, queued, k);
    best = merged.best;
    threshold = merged.threshold;
    queued = 0;
  }
  // Every lane of the warp must call it (score 0: no element).
  __device__ void offer(unsigned long long score) {
    if (__any_sync(course::kFullWarp, score > threshold && queued != 0)) flush();
    if (score > threshold) queued = score;
  }
};

// v4 a warp's top 32 in registers, for k <= 32: each warp streams its share of the input and
// keeps its 32 best in its lanes, merged by bitonic steps over shuffles (v3: passes over memory);
// the warps of a block merge their lists, and the last block merges the blocks'. One launch.
template <typename T>
__global__ void __launch_bounds__(kWarpSelectThreads, 1)
    warp_top_k_kernel(const T* in, std::size_t n, int k, unsigned long long* block_lists,
                      unsigned int* finished, T* values, std::size_t* indices) {
  constexpr int kWarps = kWarpSelectThreads / course::kWarpSize;
  __shared__ unsigned long long lists[kWarps][course::kWarpSize];
  const unsigned lane = threadIdx.x % course::kWarpSize;
  const unsigned warp = threadIdx.x / course::kWarpSize;
  WarpTop top{k};
  // The threshold only rises: a batch in which nothing beats it now is skipped whole.
  for_each_element<true, kWarpSelectBatch>(
      in, n,
      [&](T x, std::size_t i, bool valid) {
        top.offer(valid ? score_of(course::order_key(x), i) : 0);
      },
      [&](T x, std::size_t i) { return score_of(course::order_key(x), i) > top.threshold; });
  if (__any_sync(course::kFullWarp, top.queued != 0)) top.flush();
  // The block's warps, merged by warp 0; then the grid's blocks, by the last block's warps.
  lists[warp][lane] = top.best;
  __syncthreads();  // every warp's list is in
  if (warp == 0) {
    unsigned long long best = top.best;
    for (int w = 1; w < kWarps; ++w)
      best = warp_merge(best, lists[w][lane]);
    block_lists[blockIdx.x * course::kWarpSize + lane] = best;
  }
  __shared__ bool last;
  if (!lesson02::last_block_done(finished, last)) return;
  unsigned long long best = 0;
  for (unsigned b = warp; b < gridDim.x; b += kWarps)
    best = warp_merge(best, __ldcg(&block_lists[b * course::kWarpSize + lane]));
  lists[warp][lane] = best;
  __syncthreads();  // every warp's share of the blocks is merged
  if (warp == 0) {
    for (int w = 1; w < kWarps; ++w)
      best = warp_merge(best, lists[w][lane]);
    if (lane < static_cast<unsigned>(k)) {
      values[lane] = course::from_order_key<T>(static_cast<Key>(best >> 32));
      indices[lane] = 0xFFFFFFFFu - static_cast<unsigned>(best & 0xFFFFFFFFu);
    }
  }
}

inline std::string v4_limit(std::size_t n, std::size_t k, const Launch&) {
  if (k > kWarpSelectMaxK) return "a warp's 32 lanes hold k <= 32";
  return n < 0xFFFFFFFFull ? "" : "the index shares a 64-bit word with the key: n < 2^32 - 1";
}

// v4's workspace: the blocks' lists, and the count of blocks done (zero between launches).
struct WarpLists {
  WarpLists()
      : grid(course::sm_count()),
        lists(static_cast<std::size_t>(grid) * course::kWarpSize),
        finished(1) {
    finished.fill_bytes(0);
  }
  int grid;  // one block per SM
  course::DeviceBuffer<unsigned long long> lists;
  course::DeviceBuffer<unsigned int> finished;
};

template <typename T>
void top_k_v4(const T* in, std::size_t n, std::size_t k, T* values, std::size_t* indices,
              WarpLists& ws, const Launch& launch) {
  const std::string why = v4_limit(n, k, launch);
  if (!why.empty() || k == 0 || k > n) {
    throw std::invalid_argument("v4: " + (why.empty() ? std::string("k from 1 to n") : why));
  }
  warp_top_k_kernel<T><<<ws.grid, kWarpSelectThreads, 0, launch.stream>>>(
      in, n, static_cast<int>(k), ws.lists.data(), ws.finished.data(), values, indices);
  CUDA_CHECK_LAUNCH();
}

}  // namespace lesson06
