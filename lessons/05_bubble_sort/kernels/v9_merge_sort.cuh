// v9, merge sort with merge path, continued (v9_merge_path.cuh has the idea and the chunk sort):
// the merge passes over the whole array, each block cutting its share of a pair of runs by merge
// path in global memory, and the host functions that run the chunks and then the passes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "bits.hpp"
#include "check.hpp"
#include "device_memory.hpp"
#include "launch.hpp"
#include "settings.cuh"
#include "v9_merge_path.cuh"

namespace lesson05 {

constexpr unsigned kMergeThreads = 256;
constexpr unsigned kMergeTile = kMergeThreads * kItemsPerThread;  // output places per block

// One merge pass: runs of `width` places, merged in pairs into runs of 2 width. Output place i
// belongs to the pair that starts at i rounded down to 2 width; its left run ends at `mid`.
struct MergePass {
  std::size_t n;
  std::size_t width;
  __host__ __device__ static std::size_t below(std::size_t a, std::size_t b) {
    return a < b ? a : b;
  }
  __host__ __device__ std::size_t start(std::size_t i) const { return i / (2 * width) * 2 * width; }
  __host__ __device__ std::size_t mid(std::size_t i) const { return below(start(i) + width, n); }
  __host__ __device__ std::size_t end(std::size_t i) const {
    return below(start(i) + 2 * width, n);
  }
};

// merge_path_split with a warp: the same cut in about log32 steps rather than log2. Each round
// the 32 lanes test 32 evenly spaced candidates at once; the test is true below the cut and false
// from it on, so the lanes that say true count how far up the cut lies. In global memory each test
// waits for two loads, and a cut in runs of 2^23 places takes 5 such waits instead of 23.
template <class Keys>
__device__ std::size_t merge_path_split_warp(const typename Keys::Item* a, std::size_t la,
                                             const typename Keys::Item* b, std::size_t lb,
                                             std::size_t diag) {
  const unsigned lane = threadIdx.x % course::kWarpSize;
  std::size_t lo = diag > lb ? diag - lb : 0;  // the cut is in [lo, hi]
  std::size_t hi = diag < la ? diag : la;
  while (lo < hi) {
    // Candidate c of this round: lo + (lane + 1) step - 1, tested only where it is below hi.
    const std::size_t step = (hi - lo + course::kWarpSize - 1) / course::kWarpSize;
    const std::size_t c = lo + (lane + 1) * step - 1;
    const bool below = c < hi && Keys::key(a[c]) <= Keys::key(b[diag - 1 - c]);
    const unsigned t = __popc(__ballot_sync(course::kFullWarp, below));
    // t candidates are below the cut: it is past lo + t step - 1, and at most the next one.
    const std::size_t next_hi = lo + (t + 1) * step - 1;
    lo += t * step;
    hi = next_hi < hi ? next_hi : hi;
  }
  return lo;
}

// Block t writes output places [t kMergeTile, (t + 1) kMergeTile) of one pass. Its first two
// warps find where its pieces of the two runs begin and end, by merge path on the whole runs in
// global memory (merge_path_split_warp); the block loads the pieces into shared memory, each
// thread finds its own cut there and merges kItemsPerThread floats in registers, and the block
// stores the tile in order. kFinal: the last pass, which writes the output.
template <class Keys, bool kFinal>
__global__ void __launch_bounds__(kMergeThreads)
    merge_path_kernel(const typename Keys::Item* src, typename Keys::Item* dst, Keys keys,
                      MergePass pass) {
  using Item = typename Keys::Item;
  __shared__ Item s[tile_places(kMergeTile)];
  __shared__ std::size_t block_cut[2];
  const std::size_t i0 = blockIdx.x * static_cast<std::size_t>(kMergeTile);
  const std::size_t i1 = MergePass::below(i0 + kMergeTile, pass.n);
  const std::size_t start = pass.start(i0);
  const std::size_t mid = pass.mid(i0);
  const std::size_t end = pass.end(i0);
  const unsigned warp = threadIdx.x / course::kWarpSize;
  if (warp < 2) {
    // Warp 0: the cut at i0; warp 1: at i1, which is the whole left run at the pair's end.
    const std::size_t i = warp == 0 ? i0 : i1;
    const std::size_t at = i == end ? mid - start
                                    : merge_path_split_warp<Keys>(src + start, mid - start,
                                                                  src + mid, end - mid, i - start);
    if (threadIdx.x % course::kWarpSize == 0) block_cut[warp] = start + at;
  }
  __syncthreads();
  // The block's pieces: a[a0, a1) of the left run and b[b0, b1) of the right one, where the
  // outputs before i0 (and before i1) took the rest.
  const std::size_t a0 = block_cut[0];
  const std::size_t a1 = block_cut[1];
  const std::size_t b0 = mid + (i0 - a0);
  const unsigned la = static_cast<unsigned>(a1 - a0);
  const unsigned count = static_cast<unsigned>(i1 - i0);
  const unsigned lb = count - la;
  {
    // kItemsPerThread loads in flight per thread, then into shared memory.
    Item loaded[kItemsPerThread];
#pragma unroll
    for (unsigned u = 0; u < kItemsPerThread; ++u) {
      const unsigned j = threadIdx.x + u * kMergeThreads;
      if (j < count) loaded[u] = j < la ? src[a0 + j] : src[b0 + (j - la)];
    }
#pragma unroll
    for (unsigned u = 0; u < kItemsPerThread; ++u) {
      const unsigned j = threadIdx.x + u * kMergeThreads;
      if (j < count) s[tile_place(j)] = loaded[u];
    }
  }
  __syncthreads();

  // The thread's cut, then its merge.
  const unsigned diag = min(threadIdx.x * kItemsPerThread, count);
  const unsigned cut_here = merge_path_split<Keys>(s, 0, la, la, lb, diag);
  Item v[kItemsPerThread];
  merge_run<Keys>(s, cut_here, la, la + (diag - cut_here), count, v);
  __syncthreads();
#pragma unroll
  for (unsigned k = 0; k < kItemsPerThread; ++k) {
    if (diag + k < count) s[tile_place(diag + k)] = v[k];
  }
  __syncthreads();
  for (unsigned j = threadIdx.x; j < count; j += kMergeThreads) {
    if (kFinal) {
      keys.store(i0 + j, s[tile_place(j)]);
    } else {
      dst[i0 + j] = s[tile_place(j)];
    }
  }
}

// The merge passes a sort of n needs after its chunks are sorted.
inline int merge_passes(std::size_t n, unsigned chunk) {
  int passes = 0;
  for (std::size_t width = chunk; width < n; width *= 2)
    ++passes;
  return passes;
}

// merge_path_sort with chunks of kSortThreads * kItemsPerThread.
template <class Keys, unsigned kSortThreads>
void merge_path_sort_in_chunks(Keys keys, std::size_t n, typename Keys::Item* first,
                               typename Keys::Item* second, cudaStream_t stream) {
  using Item = typename Keys::Item;
  constexpr unsigned chunk = chunk_of<Keys, kSortThreads>();
  const unsigned chunks = static_cast<unsigned>((n + chunk - 1) / chunk);
  const std::size_t bytes = tile_places(chunk) * sizeof(Item);
  const int passes = merge_passes(n, chunk);
  if (passes == 0) {
    course::allow_shared_bytes(merge_path_chunk_kernel<Keys, true, kSortThreads>, bytes);
    merge_path_chunk_kernel<Keys, true, kSortThreads>
        <<<chunks, kSortThreads, bytes, stream>>>(keys, nullptr, n);
    CUDA_CHECK_LAUNCH();
    return;
  }
  // The pass before the last writes `second`, the one before that `first`, and so on back.
  Item* from = passes % 2 == 1 ? second : first;
  Item* to = passes % 2 == 1 ? first : second;
  course::allow_shared_bytes(merge_path_chunk_kernel<Keys, false, kSortThreads>, bytes);
  merge_path_chunk_kernel<Keys, false, kSortThreads>
      <<<chunks, kSortThreads, bytes, stream>>>(keys, from, n);
  CUDA_CHECK_LAUNCH();
  const std::size_t blocks = (n + kMergeTile - 1) / kMergeTile;
  for (std::size_t width = chunk; width < n; width *= 2) {
    const MergePass pass{n, width};
    if (2 * width >= n) {
      merge_path_kernel<Keys, true>
          <<<static_cast<unsigned>(blocks), kMergeThreads, 0, stream>>>(from, to, keys, pass);
    } else {
      merge_path_kernel<Keys, false>
          <<<static_cast<unsigned>(blocks), kMergeThreads, 0, stream>>>(from, to, keys, pass);
    }
    CUDA_CHECK_LAUNCH();
    std::swap(from, to);
  }
}

// Sorts n Items: chunks, then merge passes, ping-ponging between two buffers of n Items so that
// the last pass reads `second` and writes the output. `first` may be the output's own memory when
// an Item is as large as an output float (FloatKeys). A GPU whose blocks may not have a chunk's
// 66 KiB (a T4 allows 64 KiB) sorts chunks half as long, with half the threads.
template <class Keys>
void merge_path_sort(Keys keys, std::size_t n, typename Keys::Item* first,
                     typename Keys::Item* second, cudaStream_t stream) {
  if (n == 0) return;
  constexpr unsigned threads = Keys::kSortThreads;
  if (tile_places(chunk_of<Keys>()) * sizeof(typename Keys::Item) <= course::max_shared_bytes()) {
    merge_path_sort_in_chunks<Keys, threads>(keys, n, first, second, stream);
  } else {
    merge_path_sort_in_chunks<Keys, threads / 2>(keys, n, first, second, stream);
  }
}

// v9's scratch for n floats: n keys besides the output.
inline std::size_t v9_scratch_bytes(std::size_t n) {
  return n * sizeof(std::uint32_t);
}

// v9 on launch.scratch when it is large enough (the lesson's program allocates it once, outside
// the timed runs, as CUB-merge keeps its own); otherwise on scratch of its own for this call.
inline void sort_v9(const float* in, float* out, std::size_t n, const Launch& launch) {
  course::DeviceBuffer<std::uint32_t> own;
  auto* scratch = static_cast<std::uint32_t*>(launch.scratch);
  if (launch.scratch_bytes < v9_scratch_bytes(n)) {
    own = course::DeviceBuffer<std::uint32_t>(n);
    scratch = own.data();
  }
  merge_path_sort(FloatKeys{in, out}, n, reinterpret_cast<std::uint32_t*>(out), scratch,
                  launch.stream);
  if (own.size() > 0) CUDA_CHECK(cudaStreamSynchronize(launch.stream));
}

// The stable sort: keys_out gets the floats of `in` in totalOrder, and index_out[i] the place in
// `in` of keys_out[i]; equal floats keep the order they had. Indices are 32-bit: n < 2^32.
inline void stable_sort_pairs_v9(const float* in, float* keys_out, std::uint32_t* index_out,
                                 std::size_t n, cudaStream_t stream = nullptr) {
  if (n >= (std::size_t{1} << 32)) {
    throw std::invalid_argument("stable_sort_pairs_v9: 32-bit indices take n < 2^32");
  }
  course::DeviceBuffer<std::uint64_t> first(n);
  course::DeviceBuffer<std::uint64_t> second(n);
  merge_path_sort(IndexedKeys{in, keys_out, index_out}, n, first.data(), second.data(), stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace lesson05
