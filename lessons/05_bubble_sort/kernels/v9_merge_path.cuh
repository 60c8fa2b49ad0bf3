// v9: merge sort with merge path. v8's network sorts chunks of 16Ki keys in shared memory, and
// then spends most of its time on the stages longer than a chunk: at n = 2^24 their 55 global
// strides take 18 passes (four strides at most to a pass) and each stage a shared-memory merge
// kernel, 28 kernels that each read and write every key. A merge does the same work in one pass
// per doubling: 10 passes at 2^24. Each pass merges neighbouring sorted runs in pairs. The GPU
// needs the merge cut into equal pieces, one per block and then one per thread; merge path finds
// the cuts. Output place d of the merge of runs a and b is reached after taking some i floats of a
// and d - i of b, and i is found by a binary search along that "diagonal" (merge_path_split).
// In a pass, two warps of each block find the block's cuts in global memory; the block loads its
// pieces of a and b into shared memory, each thread finds its own cut there and merges
// kItemsPerThread floats, and the block writes them out. The chunks are sorted the same way
// inside a block: each thread sorts 16 floats in registers, and the block merges the runs in
// shared memory.
//
// Ties go to the run on the left, so a merge never reorders equal keys: with a stable start, the
// whole sort is stable. stable_sort_pairs_v9 shows it, sorting each float with its index.
//
// This file holds the merge within a block: merge path in shared memory, and the chunk sort.
// v9_merge_sort.cuh holds the passes over the whole array, and the host functions.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bits.hpp"
#include "v4_bitonic_block.cuh"

namespace lesson05 {

// What v9 sorts, and how it reads its input and writes its output. The passes move Items between
// buffers; only the first kernel reads floats and only the last writes them.
//   FloatKeys: the float sort, on 32-bit totalOrder keys (as v7 and v8).
//   IndexedKeys: a float's key in the high 32 bits and its index in the low 32. The chunk sort
//   compares whole items, so equal keys come out in index order (the index makes every item
//   distinct, and a network sorts distinct items one way); the merges compare keys only and
//   rely on merge path's ties to keep that order.
struct FloatKeys {
  using Item = std::uint32_t;
  static constexpr unsigned kSortThreads = 1024;  // chunks of 16Ki: 66 KiB of shared memory
  const float* in;
  float* out;
  __device__ Item load(std::size_t i) const { return course::order_key(in[i]); }
  __device__ static Item last() { return 0xFFFFFFFFu; }
  __device__ static std::uint32_t key(Item x) { return x; }
  __device__ void store(std::size_t i, Item x) const { out[i] = course::from_order_key<float>(x); }
};

struct IndexedKeys {
  using Item = std::uint64_t;
  static constexpr unsigned kSortThreads = 512;  // 8-byte items: chunks of 8Ki, the same 66 KiB
  const float* in;
  float* keys_out;
  std::uint32_t* index_out;
  __device__ Item load(std::size_t i) const {
    return (std::uint64_t{course::order_key(in[i])} << 32) | i;
  }
  __device__ static Item last() { return ~std::uint64_t{0}; }
  __device__ static std::uint32_t key(Item x) { return static_cast<std::uint32_t>(x >> 32); }
  __device__ void store(std::size_t i, Item x) const {
    keys_out[i] = course::from_order_key<float>(key(x));
    index_out[i] = static_cast<std::uint32_t>(x);
  }
};

constexpr unsigned kItemsPerThread = 16;  // outputs each thread merges, in registers

// Place j of a sorted tile in shared memory, padded as v8's: a thread's kItemsPerThread places are
// consecutive, and the padding spreads the 32 threads of a warp over 32 banks. A tile of `size`
// places takes tile_places(size), with room for the reads a merge makes one past a run's end.
__device__ __forceinline__ unsigned tile_place(unsigned j) {
  return j + j / 32;
}
__host__ __device__ constexpr unsigned tile_places(unsigned size) {
  return size + size / 32 + 2 * kItemsPerThread;
}

// The merge path's cut at output place `diag` of the merge of the runs s[a, a + la) and
// s[b, b + lb) of a padded tile: how many of the first `diag` floats of the merge come from the
// first run. Its float i goes before the second run's float j when its key is not larger (ties to
// the first run), so if it goes before float diag - 1 - i of the second run, at least i + 1 of the
// first diag come from the first run. log2(min(la, lb)) + 1 comparisons at most.
template <class Keys>
__device__ unsigned merge_path_split(const typename Keys::Item* s, unsigned a, unsigned la,
                                     unsigned b, unsigned lb, unsigned diag) {
  unsigned lo = diag > lb ? diag - lb : 0;
  unsigned hi = diag < la ? diag : la;
  while (lo < hi) {
    const unsigned mid = lo + (hi - lo) / 2;
    if (Keys::key(s[tile_place(a + mid)]) <= Keys::key(s[tile_place(b + diag - 1 - mid)])) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// A thread's share of a merge: kItemsPerThread floats, from place ai of the first run (which ends
// at a_end) and place bi of the second (which ends at b_end), into v. The next float of each run
// waits in a register, and each step reads one float from shared memory, the one after the float
// it took. No branches: a warp whose threads take from different runs would run both sides of
// one, one after the other. (A read one past a run's end stays inside the tile and is never
// taken.)
template <class Keys>
__device__ void merge_run(const typename Keys::Item* s, unsigned ai, unsigned a_end, unsigned bi,
                          unsigned b_end, typename Keys::Item (&v)[kItemsPerThread]) {
  using Item = typename Keys::Item;
  Item next_a = s[tile_place(ai)];
  Item next_b = s[tile_place(bi)];
#pragma unroll
  for (unsigned k = 0; k < kItemsPerThread; ++k) {
    const bool from_a = bi >= b_end || (ai < a_end && Keys::key(next_a) <= Keys::key(next_b));
    v[k] = from_a ? next_a : next_b;
    ai += from_a ? 1 : 0;
    bi += from_a ? 0 : 1;
    const Item after = s[tile_place(from_a ? ai : bi)];
    next_a = from_a ? after : next_a;
    next_b = from_a ? next_b : after;
  }
}

// The bitonic network of v4 on a thread's kItemsPerThread values in registers: no shared memory
// and no barrier. Whole items are compared (IndexedKeys: key, then index).
template <typename Item>
__device__ void sort_in_registers(Item (&v)[kItemsPerThread]) {
#pragma unroll
  for (unsigned k = 2; k <= kItemsPerThread; k *= 2) {
#pragma unroll
    for (unsigned i = 0; i < kItemsPerThread; ++i) {
      if ((i & (k / 2)) == 0) order_pair(v[i], v[i ^ (k - 1)]);  // the flip
    }
#pragma unroll
    for (unsigned j = k / 4; j > 0; j /= 2) {
#pragma unroll
      for (unsigned i = 0; i < kItemsPerThread; ++i) {
        if ((i & j) == 0) order_pair(v[i], v[i + j]);
      }
    }
  }
}

// The chunk sort: each thread sorts kItemsPerThread places in registers, then the block merges
// the sorted runs in shared memory, 16 into 32, 32 into 64, ..., each thread finding its cut by
// merge path and merging its kItemsPerThread outputs, until the chunk is one sorted run. log2 of
// the block's threads merge steps, where v8's network needs a barrier for every group of up to
// four strides of every stage. Places at n or past it read as the last item. kFinal: the whole
// input is one chunk, and the sorted chunk is the output.
// kSortThreads: Keys::kSortThreads, or half as many where a block may not have the chunk's shared
// memory (merge_path_sort).
template <class Keys, unsigned kSortThreads = Keys::kSortThreads>
__host__ __device__ constexpr unsigned chunk_of() {
  return kSortThreads * kItemsPerThread;
}

template <class Keys, bool kFinal, unsigned kSortThreads = Keys::kSortThreads>
__global__ void __launch_bounds__(kSortThreads)
    merge_path_chunk_kernel(Keys keys, typename Keys::Item* items, std::size_t n) {
  using Item = typename Keys::Item;
  constexpr unsigned kSortChunk = chunk_of<Keys, kSortThreads>();
  Item* s = shared_array<Item>();
  const std::size_t base = blockIdx.x * static_cast<std::size_t>(kSortChunk);
  Item v[kItemsPerThread];
#pragma unroll
  for (unsigned u = 0; u < kItemsPerThread; ++u) {
    const unsigned j = threadIdx.x + u * kSortThreads;
    v[u] = base + j < n ? keys.load(base + j) : Keys::last();
  }
#pragma unroll
  for (unsigned u = 0; u < kItemsPerThread; ++u)
    s[tile_place(threadIdx.x + u * kSortThreads)] = v[u];
  __syncthreads();
  const unsigned mine = threadIdx.x * kItemsPerThread;  // the thread's first place
#pragma unroll
  for (unsigned k = 0; k < kItemsPerThread; ++k)
    v[k] = s[tile_place(mine + k)];
  sort_in_registers(v);
  for (unsigned width = kItemsPerThread; width < kSortChunk; width *= 2) {
    __syncthreads();  // every thread has read the tile
#pragma unroll
    for (unsigned k = 0; k < kItemsPerThread; ++k)
      s[tile_place(mine + k)] = v[k];
    __syncthreads();
    const unsigned start = mine / (2 * width) * (2 * width);
    const unsigned cut =
        merge_path_split<Keys>(s, start, width, start + width, width, mine - start);
    merge_run<Keys>(s, start + cut, start + width, start + width + (mine - start - cut),
                    start + 2 * width, v);
  }
  __syncthreads();
#pragma unroll
  for (unsigned k = 0; k < kItemsPerThread; ++k)
    s[tile_place(mine + k)] = v[k];
  __syncthreads();
#pragma unroll
  for (unsigned u = 0; u < kItemsPerThread; ++u) {
    const unsigned j = threadIdx.x + u * kSortThreads;
    if (base + j < n) {
      if (kFinal) {
        keys.store(base + j, s[tile_place(j)]);
      } else {
        items[base + j] = s[tile_place(j)];
      }
    }
  }
}

}  // namespace lesson05
