// v5, one read of the input: a sample of 8192 keys sets a threshold a little below the k-th
// largest key; one pass keeps every key at or above it (a few per thousand); radix select then
// works on those alone. If the sample misjudged (fewer than k kept, or more than the list holds),
// the select falls back to v3's two passes over the input, in the same launch.
#pragma once

#include <cooperative_groups.h>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "../reference.hpp"
#include "bits.hpp"
#include "check.hpp"
#include "inputs.hpp"
#include "launch.hpp"
#include "settings.cuh"
#include "streaming.cuh"
#include "v3_radix_select.cuh"

namespace lesson06 {

constexpr unsigned kSamples = 8192;  // 16 per thread of a 512-thread block
constexpr int kFilterBatch = 4;      // 16-byte loads per thread at a time
constexpr int kFilterBlocksPerSM = 2;
constexpr unsigned kKeptStaged = 1024;  // a block's kept keys staged in shared memory
constexpr std::uint64_t kSampleSeed = 0x5A3D1E;
// Below this many values a sample says little (and v3 is quick): v5 runs v3.
constexpr std::size_t kFewestSampled = 8 * kSamples;

// What v5 filters with, chosen on the host from n and k alone: the sample rank of the threshold,
// and the longest list of kept keys it accepts. rank 0: no filter (v5 runs v3).
struct FilterPlan {
  unsigned rank = 0;
  unsigned long long most_kept = 0;
};

// The threshold is the rank-th largest of the kSamples sampled keys. Of the samples, about
// mu = kSamples k / n lie above the k-th largest key (a binomial count, spread about sqrt(mu));
// rank = mu + 4 sqrt(mu) + 2 puts the threshold below the k-th largest key unless the sample is
// off by more than four spreads, and keeps about n rank / kSamples keys. The list takes twice that
// and 64Ki more. Past a sixteenth of the input kept, the filter would save little: no filter.
inline FilterPlan filter_plan(std::size_t n, std::size_t k) {
  if (n < kFewestSampled || k == 0 || k > n) return {};
  const double mu = static_cast<double>(kSamples) * static_cast<double>(k) / static_cast<double>(n);
  const double rank = std::ceil(mu + 4.0 * std::sqrt(mu)) + 2.0;
  if (rank > kSamples / 16) return {};
  const double expected = static_cast<double>(n) * rank / kSamples;
  const unsigned long long most = 2 * static_cast<unsigned long long>(expected) + 65536;
  return {static_cast<unsigned>(rank), most < n ? most : n};
}

// Where sample i of kSamples lies in n values: in stride i of n / kSamples, at a pseudo-random
// place in it (the high half of a 64 x 64-bit product: a division would be slow). The tests
// compute the same places.
COURSE_HOST_DEVICE inline std::size_t sample_place(unsigned i, std::size_t n) {
  const std::uint64_t stride = n / kSamples;
  const std::uint64_t r = course::random_u64(kSampleSeed, i);
#ifdef __CUDA_ARCH__
  const std::uint64_t within = __umul64hi(r, stride);
#else
  const auto within =
      static_cast<std::uint64_t>((static_cast<unsigned __int128>(r) * stride) >> 64);
#endif
  return i * stride + within;
}

// The threshold. Each of 16 blocks reads 512 samples, one per thread, and writes them out: random
// reads wait long, and one SM alone can have only so many in flight. The last block to finish
// (each counts itself in with an atomic once its samples are written and fenced) reads all 8192
// and finds the rank-th largest by radix select in shared memory, digit by digit as v3 does over
// the input. It writes the digits chosen: the rank-th largest sample, or, where a whole bucket
// was wanted, the bucket's floor below it.
constexpr unsigned kSampleBlocks = kSamples / kSelectThreads;

template <typename T>
__global__ void __launch_bounds__(kSelectThreads)
    sample_threshold_kernel(const T* in, std::size_t n, unsigned rank, SelectState* s,
                            Key* samples) {
  constexpr unsigned kPerThread = kSamples / kSelectThreads;
  __shared__ unsigned bins[kMaxBins];
  __shared__ ChoiceSpace choosing;
  __shared__ bool last;
  const unsigned mine = blockIdx.x * kSelectThreads + threadIdx.x;
  samples[mine] = course::order_key(in[sample_place(mine, n)]);
  __threadfence();  // the sample is visible to every block before this block counts itself in
  __syncthreads();  // every thread's sample is written and fenced
  if (threadIdx.x == 0) last = atomicAdd(&s->sampled, 1ull) == kSampleBlocks - 1;
  __syncthreads();  // `last` is known
  if (!last) return;
  Key sample[kPerThread];
#pragma unroll
  for (unsigned j = 0; j < kPerThread; ++j)
    sample[j] = __ldcg(&samples[threadIdx.x + j * kSelectThreads]);
  Choice choice{0, 0, rank, 0};
  for (int round = 0; round < kDigits && !choice.take_all; ++round) {
    const Digit digit = digit_plan(round);
    zero_bins(bins);
#pragma unroll
    for (unsigned j = 0; j < kPerThread; ++j) {
      if ((sample[j] & choice.mask) == choice.prefix) atomicAdd(&bins[digit.of(sample[j])], 1u);
    }
    __syncthreads();  // counted
    choice = choose_bucket_in_block(
        &choosing, [&](unsigned b) { return bins[b]; }, digit, choice);
  }
  if (threadIdx.x == 0) s->threshold = choice.prefix;
}

// A block of the filter: its histogram of the kept keys' top digit, and its kept keys, staged.
struct FilterSpace {
  unsigned bins[kMaxBins];
  Stage<kKeptStaged> kept;
};

// Where the filter keeps its keys: buffer 1 of the select's candidates (the select's first sift
// writes buffer 0), counted in s->kept, at most `most` of them.
struct KeptList {
  Key* keys;
  std::size_t* indices;
  unsigned long long most;
};

// The kept keys of one warp's element: counted by their top digit and appended. Out of line, as
// v3's keep(): inlined at each of the 16 elements of a batch, it would crowd the instruction cache.
__device__ __noinline__ void keep_above(FilterSpace* space, SelectState* s, KeptList list, Key key,
                                        std::size_t index, bool take) {
  if (take) atomicAdd(&space->bins[digit_plan(0).of(key)], 1u);
  stage_append(take, key, index, &space->kept, list.keys, list.indices, &s->kept, list.most);
}

// The filter: the grid reads the input once and keeps the keys at or above the threshold; a warp
// whose batch holds none skips it after one vote.
template <typename T>
__global__ void __launch_bounds__(kSelectThreads, kFilterBlocksPerSM)
    sampled_filter_kernel(const T* in, std::size_t n, SelectState* s, KeptList list) {
  __shared__ FilterSpace space;
  const Key threshold = static_cast<Key>(s->threshold);
  zero_bins(space.bins);
  if (threadIdx.x == 0) space.kept.count = 0;
  __syncthreads();  // the stage is empty
  for_each_element<true, kFilterBatch>(
      in, n,
      [&](T x, std::size_t i, bool valid) {
        const Key key = course::order_key(x);
        const bool take = valid && key >= threshold;
        if (__any_sync(course::kFullWarp, take)) keep_above(&space, s, list, key, i, take);
      },
      [&](T x, std::size_t) { return course::order_key(x) >= threshold; });
  publish_stage(&space.kept, list.keys, list.indices, &s->kept, list.most);
  merge_bins(space.bins, digit_plan(0).bins(), s->kept_histogram);
}

// ---- the winners sorted in chunks, then merged by counting
// ----------------------------------------

// Past kRankSortMaxK winners, v3's O(k^2) ranking is too slow and v3 calls CUB (a few kernels, on
// a few blocks). v5 sorts them in the select's own launch, up to kChunkSortMaxK: each block sorts
// a chunk of kChunk winners by ranking them (kChunk^2 comparisons), then a winner's place is its
// place in its chunk plus, for every other chunk, how many of that chunk's keys come before it:
// a binary search, as merge path's. All the sorted keys are staged in shared memory for those.
constexpr unsigned kChunk = kSelectThreads;
constexpr std::size_t kChunkSortMaxK = 32768;  // 128 KiB of keys in shared memory

// How the select's launch sorts its winners: by rank (k <= kRankSortMaxK), in chunks (k up to
// `chunk_most`, chunk_sort_most on this GPU), or not (CUB sorts them after).
enum class WinnerSort { rank, chunks, cub };

inline WinnerSort winner_sort_for(std::size_t k, std::size_t chunk_most = kChunkSortMaxK) {
  return k <= kRankSortMaxK ? WinnerSort::rank
         : k <= chunk_most  ? WinnerSort::chunks
                            : WinnerSort::cub;
}

// How many of the descending keys a[0, count) come before `key`: those above it, and, when
// `ties_first`, those equal to it too.
__device__ inline unsigned keys_before(const Key* a, unsigned count, Key key, bool ties_first) {
  unsigned lo = 0;
  unsigned hi = count;
  while (lo < hi) {
    const unsigned mid = (lo + hi) / 2;
    const bool before = a[mid] > key || (ties_first && a[mid] == key);
    lo = before ? mid + 1 : lo;
    hi = before ? hi : mid;
  }
  return lo;
}

// The k winners sorted, descending, ties in buffer order, and written out as values with their
// indices; `sorted` and `places` (k each) hold the sorted chunks, `staged` is k keys of shared
// memory. Every thread of the grid.
template <typename T>
__device__ void chunk_sort_winners(const Key* keys, const std::size_t* indices, unsigned k,
                                   Key* sorted, std::size_t* places, unsigned long long* chunk,
                                   Key* staged, T* values, std::size_t* out_indices) {
  const unsigned chunks = (k + kChunk - 1) / kChunk;
  // Each block ranks its chunks' winners among their chunk.
  for (unsigned c = blockIdx.x; c < chunks; c += gridDim.x) {
    const unsigned first = c * kChunk;
    const unsigned count = min(kChunk, k - first);
    __syncthreads();  // the chunk before is done with
    // Each key as its score: ties go to the earlier in the buffer.
    if (threadIdx.x < count) {
      chunk[threadIdx.x] = score_of(__ldcg(&keys[first + threadIdx.x]), threadIdx.x);
    }
    __syncthreads();  // staged
    if (threadIdx.x < count) {
      const unsigned long long mine = chunk[threadIdx.x];
      unsigned place = 0;
      for (unsigned j = 0; j < count; ++j)  // one address for the warp: a broadcast
        place += chunk[j] > mine;
      sorted[first + place] = static_cast<Key>(mine >> 32);
      places[first + place] = first + threadIdx.x;
    }
  }
  cooperative_groups::this_grid().sync();  // every chunk is sorted
  for_each_key_in_block(sorted, k, [&](unsigned long long j, Key key) { staged[j] = key; });
  __syncthreads();  // staged
  // `group` threads count for each sorted key, each over every group-th chunk, then add up.
  const unsigned long long threads = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  unsigned group = 1;
  while (group < course::kWarpSize && 2ull * group * k <= threads)
    group *= 2;
  const unsigned lane = threadIdx.x % course::kWarpSize;
  const unsigned part = lane % group;
  for (unsigned long long base = course::first_index() - lane;
       base < static_cast<unsigned long long>(k) * group; base += threads) {
    const unsigned long long j = (base + lane) / group;
    const bool valid = j < k;
    const Key key = valid ? staged[j] : 0;
    const unsigned mine = static_cast<unsigned>(j / kChunk);
    unsigned before = 0;
    for (unsigned c = part; valid && c < chunks; c += group) {
      if (c == mine) continue;
      const unsigned first = c * kChunk;
      before += keys_before(staged + first, min(kChunk, k - first), key, c < mine);
    }
    for (unsigned offset = group / 2; offset > 0; offset /= 2)
      before += __shfl_xor_sync(course::kFullWarp, before, offset);
    if (valid && part == 0) {
      const unsigned place = before + static_cast<unsigned>(j % kChunk);
      values[place] = course::from_order_key<T>(key);
      out_indices[place] = __ldcg(&indices[__ldcg(&places[j])]);
    }
  }
}

// v5's select, cooperative: radix select over the kept keys when there are from k to list.most of
// them; otherwise (the sample misjudged) v3's two passes over the input. Then v3's last two digits
// and the winners sorted as `sort` says. Block 0 reports what the filter kept and whether the
// select fell back (report[0], report[1]).
template <typename T>
__global__ void __launch_bounds__(kSelectThreads, 1)
    select_kept_kernel(const T* in, std::size_t n, std::size_t k, SelectState* s,
                       SelectBuffers buffers, KeptList list, WinnerSort sort, Key* sorted,
                       std::size_t* places, T* values, std::size_t* indices,
                       unsigned long long* report) {
  __shared__ SelectShared sh;
  extern __shared__ Key staged[];  // the chunk sort's: k keys
  const unsigned long long kept = __ldcg(&s->kept);
  const bool filtered = k <= kept && kept <= list.most;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    report[0] = kept;
    report[1] = filtered ? 0 : 1;
  }
  Choice first;
  if (filtered) {
    first = choose_bucket_in_block(&sh.choosing, GlobalBins{s->kept_histogram}, digit_plan(0),
                                   Choice{0, 0, k, 0});
    sift_list(start_sift(&sh.space, first, 0, s, buffers, sh.bins), list.keys, list.indices, kept);
    end_sift(&sh.space, s->histogram[1]);
  } else {
    first = sift_input(in, n, k, s, buffers, &sh);
  }
  cooperative_groups::this_grid().sync();  // every winner and candidate of the first digit is in
  finish_select(first, s, buffers, &sh);
  const auto winners = static_cast<unsigned>(k);
  if (sort == WinnerSort::rank) {
    rank_winners(&sh.ranking, buffers.winner_keys, buffers.winner_indices, winners, values,
                 indices);
  } else if (sort == WinnerSort::chunks) {
    chunk_sort_winners(buffers.winner_keys, buffers.winner_indices, winners, sorted, places,
                       reinterpret_cast<unsigned long long*>(sh.ranking.staged), staged, values,
                       indices);
  }
}

inline std::string v5_limit(std::size_t n, std::size_t k, const Launch& launch) {
  return v3_limit(n, k, launch);
}

// The most winners the select's launch sorts in chunks on this GPU: their keys are staged in one
// block's shared memory beside the kernel's own, so kChunkSortMaxK where a block may opt into that
// much, fewer where it may not (a T4's 64 KiB holds about 16000 keys beside it).
template <typename T>
std::size_t chunk_sort_most() {
  static const std::size_t most = [] {
    const std::size_t room =
        course::max_shared_bytes() -
        course::static_shared_bytes(reinterpret_cast<const void*>(select_kept_kernel<T>));
    return std::min(kChunkSortMaxK, room / sizeof(Key));
  }();
  return most;
}

// v5: the filter, then the select of what it kept (or v3 alone, where filter_plan says no filter).
// The winners are sorted as v3's are.
template <typename T>
void top_k_v5(const T* in, std::size_t n, std::size_t k, T* values, std::size_t* indices,
              SelectSpace& ws, const Launch& launch) {
  if (k == 0 || k > n) throw std::invalid_argument("v5: k must be from 1 to n");
  const FilterPlan plan = filter_plan(n, k);
  if (plan.rank == 0) {
    top_k_v3(in, n, k, values, indices, ws, launch);
    return;
  }
  const cudaStream_t stream = launch.stream;
  SelectState* s = ws.state.data();  // zero, as v3 leaves it
  SelectBuffers buffers = ws.buffers();
  KeptList list{buffers.candidate_keys[1], buffers.candidate_indices[1], plan.most_kept};
  // The samples go to buffer 0 of the candidates, which the select writes only later.
  sample_threshold_kernel<T><<<kSampleBlocks, kSelectThreads, 0, stream>>>(
      in, n, plan.rank, s, buffers.candidate_keys[0]);
  CUDA_CHECK_LAUNCH();
  sampled_filter_kernel<T>
      <<<ws.grid * kFilterBlocksPerSM, kSelectThreads, 0, stream>>>(in, n, s, list);
  CUDA_CHECK_LAUNCH();
  const std::size_t chunk_most = chunk_sort_most<T>();
  WinnerSort sort = winner_sort_for(k, chunk_most);
  if (sort != WinnerSort::rank && ws.sorted_keys.size() < k) {
    throw std::invalid_argument("v5: no room to sort this k");
  }
  Key* sorted = ws.sorted_keys.data();
  std::size_t* places = ws.sorted_indices.data();
  unsigned long long* report = ws.report.data();
  const std::size_t staged = sort == WinnerSort::chunks ? k * sizeof(Key) : 0;
  // Room for the chunk sort's keys at any k it takes: past 48 KiB, so opted in.
  course::allow_shared_bytes(select_kept_kernel<T>, chunk_most * sizeof(Key));
  void* args[] = {&in,   &n,      &k,      &s,      &buffers, &list,
                  &sort, &sorted, &places, &values, &indices, &report};
  CUDA_CHECK(course::launch_cooperative(select_kept_kernel<T>, ws.grid, kSelectThreads, args,
                                        staged, stream));
  if (sort == WinnerSort::cub) sort_winners_with_cub(k, values, indices, ws, stream);
}

// What v5's last filter did: how many keys it kept, and whether the select fell back to the input.
struct FilterReport {
  unsigned long long kept;
  bool fell_back;
};

inline FilterReport filter_report(const SelectSpace& ws) {
  const std::vector<unsigned long long> words = ws.report.download();
  return {words[0], words[1] != 0};
}

}  // namespace lesson06
