// v3, radix select: the keys' 32 bits read as three digits; a histogram of each digit finds the
// bucket that holds the k-th largest key, the keys above it are winners and the keys in it are the
// candidates for the next digit; then the k winners are sorted. One cooperative launch, built from
// the pieces in v3_choose_and_sift.cuh.
#pragma once

#include <cooperative_groups.h>
#include <climits>
#include <cstddef>
#include <cub/device/device_radix_sort.cuh>
#include <stdexcept>
#include <string>

#include "../reference.hpp"
#include "bits.hpp"
#include "check.hpp"
#include "device_memory.hpp"
#include "launch.hpp"
#include "settings.cuh"
#include "streaming.cuh"
#include "v3_choose_and_sift.cuh"

namespace lesson06 {

// The survivors, sorted: each of the k winners counts the winners that come before it (a larger
// key, or the same key earlier in the buffer), and that count is its place. O(k^2) comparisons,
// but every one independent. A block stages the k keys in shared memory, then ranks 32 winners
// at a time, one per lane, its warps sharing out the comparisons. A winner compares as its
// score_of(key, place in the buffer).
struct RankSpace {
  alignas(16) Key staged[kRankSortMaxK];  // v5 also puts 8-byte scores here
  unsigned ranks[course::kWarpSize];
};

template <typename T>
__device__ void rank_winners(RankSpace* space, const Key* keys, const std::size_t* indices,
                             unsigned k, T* values, std::size_t* out_indices) {
  Key* staged = space->staged;
  unsigned* ranks = space->ranks;
  constexpr unsigned kWarps = kSelectThreads / course::kWarpSize;
  const unsigned lane = threadIdx.x % course::kWarpSize;
  const unsigned warp = threadIdx.x / course::kWarpSize;
  for_each_key_in_block(keys, k, [&](unsigned long long j, Key key) { staged[j] = key; });
  for (unsigned first = blockIdx.x * course::kWarpSize; first < k;
       first += gridDim.x * course::kWarpSize) {
    if (warp == 0) ranks[lane] = 0;
    __syncthreads();  // the keys are staged and the counts zeroed
    const unsigned i = first + lane;
    const unsigned long long mine = i < k ? score_of(staged[i], i) : ~0ull;
    unsigned before = 0;
    for (unsigned j = warp; j < k; j += kWarps)
      before += score_of(staged[j], j) > mine;  // one address for the whole warp: a broadcast
    atomicAdd(&ranks[lane], before);
    __syncthreads();  // every warp's count is in
    if (warp == 0 && i < k) {
      values[ranks[lane]] = course::from_order_key<T>(staged[i]);
      out_indices[ranks[lane]] = __ldcg(&indices[i]);
    }
  }
}

// The shared memory of one block of a select: its histogram of the digit being counted, its sift,
// its choice of bucket and its staged winners.
struct SelectShared {
  unsigned bins[kMaxBins];
  SiftSpace space;
  ChoiceSpace choosing;
  RankSpace ranking;
};

// A finished global histogram's bins, read from L2 (every block added to them).
struct GlobalBins {
  const unsigned long long* histogram;
  __device__ unsigned long long operator()(unsigned b) const { return __ldcg(&histogram[b]); }
};

// Passes 1 and 2 of radix select over the whole input: the histogram of the top digit, the bucket
// that holds the k-th largest key, and every key sifted against it (winners kept, candidates kept
// and counted by the next digit). Returns the choice of the top digit; the caller's grid barrier
// ends pass 2. Every thread of the grid.
template <typename T>
__device__ Choice sift_input(const T* in, std::size_t n, std::size_t k, SelectState* s,
                             const SelectBuffers& buffers, SelectShared* sh) {
  // Pass 1: the histogram of the top digit, over every key.
  const Digit top = digit_plan(0);
  zero_bins(sh->bins);
  for_each_element<false, kCountBatch>(
      in, n,
      [&](T x, std::size_t, bool) { atomicAdd(&sh->bins[top.of(course::order_key(x))], 1u); },
      Always{});
  merge_bins(sh->bins, top.bins(), s->histogram[0]);
  cooperative_groups::this_grid().sync();  // the histogram is complete

  // Pass 2: every key against the top digit's bucket; a warp skips a batch in which no key
  // reaches it. The candidates are counted by the next digit.
  const Choice first =
      choose_bucket_in_block(&sh->choosing, GlobalBins{s->histogram[0]}, top, Choice{0, 0, k, 0});
  const Sifter sifter = start_sift(&sh->space, first, 0, s, buffers, sh->bins);
  for_each_element<true, kSiftBatch>(
      in, n, [&](T x, std::size_t i, bool valid) { sifter(course::order_key(x), i, valid); },
      [&](T x, std::size_t) { return sifter.wanted(course::order_key(x)); });
  end_sift(&sh->space, s->histogram[1]);
  return first;
}

// The rest of radix select, once the top digit is chosen and its candidates are in buffer 0
// (counted in s->candidates[0], and by the next digit in s->histogram[1]): the last two digits
// among the candidates, the k winners found, and the state zeroed for the next select. Every
// thread of the grid, after a grid barrier; the winners are all in when it returns.
__device__ inline void finish_select(const Choice& first, SelectState* s,
                                     const SelectBuffers& buffers, SelectShared* sh) {
  const cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  const Choice second =
      choose_bucket_in_block(&sh->choosing, GlobalBins{s->histogram[1]}, digit_plan(1), first);
  const unsigned long long count = __ldcg(&s->candidates[0]);
  Choice third;
  const Key* list_keys = buffers.candidate_keys[0];
  const std::size_t* list_indices = buffers.candidate_indices[0];
  unsigned long long list_count = count;
  if (count <= kFewCandidates) {
    // Few: each block counts the last digit over all of them itself, so no block waits.
    zero_bins(sh->bins);
    const Digit last = digit_plan(2);
    if (!second.take_all) {
      for_each_key_in_block(list_keys, count, [&](unsigned long long, Key key) {
        if ((key & second.mask) == second.prefix) atomicAdd(&sh->bins[last.of(key)], 1u);
      });
    }
    __syncthreads();  // counted
    third = choose_bucket_in_block(
        &sh->choosing, [&](unsigned b) { return sh->bins[b]; }, last, second);
  } else {
    // Many: the blocks share them out, and count the last digit together.
    sift_list(start_sift(&sh->space, second, 1, s, buffers, sh->bins), list_keys, list_indices,
              count);
    end_sift(&sh->space, s->histogram[2]);
    grid.sync();  // every candidate of this round is in
    third =
        choose_bucket_in_block(&sh->choosing, GlobalBins{s->histogram[2]}, digit_plan(2), second);
    list_keys = buffers.candidate_keys[1];
    list_indices = buffers.candidate_indices[1];
    list_count = __ldcg(&s->candidates[1]);
  }
  // Every digit chosen: the last candidates are winners, or equal to the k-th largest key.
  sift_list(start_sift(&sh->space, third, kDigits - 1, s, buffers, sh->bins), list_keys,
            list_indices, list_count);
  end_sift(&sh->space, nullptr);
  grid.sync();  // every winner is in, and nobody reads the state any more
  // The state back to zero for the next select (cheaper here than a memset before it).
  auto* words = reinterpret_cast<unsigned long long*>(s);
  constexpr std::size_t kWords = sizeof(SelectState) / sizeof(unsigned long long);
  for (std::size_t w = course::first_index(); w < kWords; w += course::grid_stride()) {
    words[w] = 0;
  }
}

// v3 radix select (v2: per-thread lists): a key's 32 bits read as three digits of 11, 11 and 10
// bits, from the top. Count the keys by their top digit; the bin that holds the k-th largest key
// is its top digit, every key in a bin above it is a winner, and the keys in that bin are the
// candidates; count those by the next digit, and so on. Then the k winners are sorted. One
// cooperative launch: all its blocks are resident at once, so a grid barrier (grid.sync()) can
// stand between two passes where a kernel boundary would: no launch, and no pass waits to start.
template <typename T>
__global__ void __launch_bounds__(kSelectThreads, 1)
    radix_select_kernel(const T* in, std::size_t n, std::size_t k, SelectState* s,
                        SelectBuffers buffers, bool rank_here, T* values, std::size_t* indices) {
  __shared__ SelectShared sh;
  const Choice first = sift_input(in, n, k, s, buffers, &sh);
  cooperative_groups::this_grid().sync();  // every winner and candidate of pass 2 is in
  finish_select(first, s, buffers, &sh);
  if (rank_here) {
    rank_winners(&sh.ranking, buffers.winner_keys, buffers.winner_indices, static_cast<unsigned>(k),
                 values, indices);
  }
}

template <typename T>
__global__ void keys_to_values_kernel(const Key* keys, const std::size_t* indices, std::size_t k,
                                      T* values, std::size_t* out_indices) {
  for (std::size_t j = course::first_index(); j < k; j += course::grid_stride()) {
    values[j] = course::from_order_key<T>(keys[j]);
    out_indices[j] = indices[j];
  }
}

inline std::string v3_limit(std::size_t, std::size_t k, const Launch&) {
  // Past kRankSortMaxK, CUB sorts the winners, and its item count is an int.
  return k <= INT_MAX ? "" : "CUB sorts the winners: k < 2^31";
}

// v3's workspace, made once for a given n and k, outside the timed runs (as CUB's scratch is).
struct SelectSpace {
  SelectSpace(std::size_t n, std::size_t k)
      : state(1), winner_keys(k), winner_indices(k), report(2), grid(course::sm_count()) {
    for (int b = 0; b < 2; ++b) {
      candidate_keys[b] = course::DeviceBuffer<Key>(n);
      candidate_indices[b] = course::DeviceBuffer<std::size_t>(n);
    }
    state.fill_bytes(0);  // every select leaves it zero again
    if (k <= INT_MAX) {   // the survivors, when CUB sorts them
      sorted_keys = course::DeviceBuffer<Key>(k);
      sorted_indices = course::DeviceBuffer<std::size_t>(k);
      std::size_t bytes = 0;
      CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(
          nullptr, bytes, winner_keys.data(), sorted_keys.data(), winner_indices.data(),
          sorted_indices.data(), static_cast<int>(k)));
      sort_scratch = course::DeviceBuffer<unsigned char>(bytes > 0 ? bytes : 1);
    }
  }

  course::DeviceBuffer<SelectState> state;
  course::DeviceBuffer<Key> candidate_keys[2];
  course::DeviceBuffer<std::size_t> candidate_indices[2];
  course::DeviceBuffer<Key> winner_keys;
  course::DeviceBuffer<std::size_t> winner_indices;
  course::DeviceBuffer<Key> sorted_keys;  // past kRankSortMaxK: CUB's output, and its scratch
  course::DeviceBuffer<std::size_t> sorted_indices;
  course::DeviceBuffer<unsigned char> sort_scratch;
  course::DeviceBuffer<unsigned long long> report;  // v5's last filter: kept, fell back
  int grid;                                         // one block per SM, all resident at once

  SelectBuffers buffers() {
    return {winner_keys.data(),
            winner_indices.data(),
            {candidate_keys[0].data(), candidate_keys[1].data()},
            {candidate_indices[0].data(), candidate_indices[1].data()}};
  }
};

// Past kRankSortMaxK: CUB sorts the k winners a select left in the workspace, by key, descending,
// and they are written out as values with their indices.
template <typename T>
void sort_winners_with_cub(std::size_t k, T* values, std::size_t* indices, SelectSpace& ws,
                           cudaStream_t stream) {
  if (ws.sorted_keys.size() < k) throw std::invalid_argument("no CUB scratch for this k");
  std::size_t bytes = ws.sort_scratch.size();
  CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(
      ws.sort_scratch.data(), bytes, ws.winner_keys.data(), ws.sorted_keys.data(),
      ws.winner_indices.data(), ws.sorted_indices.data(), static_cast<int>(k), 0, 32, stream));
  keys_to_values_kernel<T><<<course::sm_count() * 4, 256, 0, stream>>>(
      ws.sorted_keys.data(), ws.sorted_indices.data(), k, values, indices);
  CUDA_CHECK_LAUNCH();
}

// How v3 sorts its k winners: in the kernel, by rank, up to kRankSortMaxK, else with CUB; or with
// CUB at any k (the --k-sweep compares the two).
enum class SurvivorSort { automatic, cub };

template <typename T>
void top_k_v3(const T* in, std::size_t n, std::size_t k, T* values, std::size_t* indices,
              SelectSpace& ws, const Launch& launch, SurvivorSort how = SurvivorSort::automatic) {
  if (k == 0 || k > n) throw std::invalid_argument("v3: k must be from 1 to n");
  const cudaStream_t stream = launch.stream;
  SelectState* s = ws.state.data();  // zero: the workspace starts so, and every select ends so
  SelectBuffers buffers = ws.buffers();
  bool rank_here = k <= kRankSortMaxK && how != SurvivorSort::cub;
  // A cooperative launch: it fails, rather than hangs, if the grid cannot all be resident.
  void* args[] = {&in, &n, &k, &s, &buffers, &rank_here, &values, &indices};
  CUDA_CHECK(
      course::launch_cooperative(radix_select_kernel<T>, ws.grid, kSelectThreads, args, 0, stream));
  if (!rank_here) sort_winners_with_cub(k, values, indices, ws, stream);
}

}  // namespace lesson06
