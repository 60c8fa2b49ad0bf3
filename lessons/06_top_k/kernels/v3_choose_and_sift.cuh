// v3's pieces, each run by every block of radix select's one launch: where a select stands
// (Choice, and SelectState in device memory) and the sizes it runs with; the choice of the bucket
// of a digit that holds the k-th largest key, from a finished histogram; and the sift that keeps
// the winners and the candidates for the next digit, staged in shared memory and published a block
// at a time. v3_radix_select.cuh puts them together into passes (and v5 reuses them).
#pragma once

#include <cstddef>
#include <cub/block/block_scan.cuh>

#include "../reference.hpp"
#include "launch.hpp"
#include "streaming.cuh"

namespace lesson06 {

// Where a select stands after choosing the bucket of a digit: the digits of the k-th largest key
// found so far, and how many keys that match them are still wanted.
struct Choice {
  Key prefix;                    // the digits found so far
  Key mask;                      // the bits they cover
  unsigned long long remaining;  // keys still wanted among those that match the prefix
  unsigned int take_all;         // the whole bucket is wanted: every match is a winner
};

// What the blocks of one select share, in device memory. Zero before a select, and left zero by
// it.
struct SelectState {
  unsigned long long histogram[kDigits][kMaxBins];  // digit d's, over the keys that match the
                                                    // digits before it
  unsigned long long winners;                       // keys in the winners' buffer
  unsigned long long candidates[2];                 // keys in each candidates' buffer
  unsigned long long taken;  // last digit: keys equal to the k-th one taken so far
  // v5 only: its sampling blocks done, its sampled threshold, the keys its filter kept, and their
  // histogram by the top digit.
  unsigned long long sampled;  // blocks that have written their samples
  unsigned long long threshold;
  unsigned long long kept;
  unsigned long long kept_histogram[kMaxBins];
};
static_assert(sizeof(SelectState) % sizeof(unsigned long long) == 0, "zeroed in 8-byte words");

constexpr int kSelectThreads = 512;  // a multiple of 32 that divides every digit's bins
constexpr int kCountBatch = 4;       // pass 1: 16-byte loads per thread at a time
constexpr int kSiftBatch = 2;        // pass 2: fewer, for the registers its votes need
// Past pass 2, every block counts the last two digits of the candidates itself when there are at
// most this many (on the source's input, about n / 2048 are); more, and the blocks share the work.
constexpr std::size_t kFewCandidates = 16384;
// The winners are sorted in the kernel up to this many (their keys staged in shared memory);
// past it, CUB sorts them.
constexpr std::size_t kRankSortMaxK = 4096;

// The block scan that choose_bucket_in_block runs, and the shared memory it needs: the scan's
// scratch and the choice, which one thread finds and every thread reads.
using BucketScan = cub::BlockScan<unsigned long long, kSelectThreads>;
struct ChoiceSpace {
  typename BucketScan::TempStorage scan;
  Choice chosen;
};

// The choice of bucket: the bin of `digit`, counted from the top of a finished histogram (count(b)
// is bin b's count), that holds the remaining-th largest key. Each thread adds up a run of bins, a
// prefix sum over the threads says how many keys lie above each run, and the one thread whose run
// holds the place walks its bins. Every block makes the same choice for itself, rather than one
// block for all: then no block waits for another. Every thread of the block calls it and gets the
// answer; the prefix sum is CUB's block scan (lesson 02 builds a block-wide sum from warp
// shuffles; a scan is the same tree, keeping every partial sum).
template <typename Count>
__device__ Choice choose_bucket_in_block(ChoiceSpace* space, Count count, Digit digit,
                                         const Choice& before) {
  constexpr unsigned kMostPerThread = kMaxBins / kSelectThreads;
  if (before.take_all) return before;  // nothing is left to choose
  const unsigned per_thread = digit.bins() / blockDim.x;
  const unsigned top = digit.bins() - threadIdx.x * per_thread;  // this thread's bins: below top
  unsigned long long here[kMostPerThread];
  unsigned long long run = 0;
#pragma unroll
  for (unsigned j = 0; j < kMostPerThread; ++j) {  // here[j]: bin top - 1 - j, the highest first
    here[j] = j < per_thread ? count(top - 1 - j) : 0;
    run += here[j];
  }
  unsigned long long above = 0;
  BucketScan(space->scan).ExclusiveSum(run, above);
  if (above < before.remaining && before.remaining <= above + run) {
#pragma unroll
    for (unsigned j = 0; j < kMostPerThread; ++j) {
      if (j < per_thread && above < before.remaining && above + here[j] >= before.remaining) {
        const Key bin = top - 1 - j;
        space->chosen = {before.prefix | bin << digit.shift, before.mask | digit.mask(),
                         before.remaining - above, before.remaining - above == here[j]};
      }
      above += here[j];
    }
  }
  __syncthreads();  // the choice is made
  return space->chosen;
}

// Adds a block's bins to a global histogram (only the bins it saw).
__device__ inline void merge_bins(const unsigned* bins, unsigned count,
                                  unsigned long long* histogram) {
  __syncthreads();  // every thread has counted
  for (unsigned b = threadIdx.x; b < count; b += blockDim.x) {
    if (bins[b] != 0) atomicAdd(&histogram[b], static_cast<unsigned long long>(bins[b]));
  }
}

__device__ inline void zero_bins(unsigned* bins) {
  __syncthreads();  // nobody still reads them
  for (unsigned b = threadIdx.x; b < kMaxBins; b += blockDim.x)
    bins[b] = 0;
  __syncthreads();  // zeroed before counting
}

// Appends (key, index) for the lanes where `take` holds to keys[] and indices[] at *count, with one
// atomic per warp (warp_reserve). A list of `limit` places keeps what fits and counts the rest.
// Every lane of the warp must call it.
constexpr unsigned long long kNoLimit = ~0ull;
__device__ inline void warp_append(bool take, Key key, std::size_t index, Key* keys,
                                   std::size_t* indices, unsigned long long* count,
                                   unsigned long long limit = kNoLimit) {
  const unsigned long long at = warp_reserve(take, count);
  if (take && at < limit) {
    keys[at] = key;
    indices[at] = index;
  }
}

// A block's staging area for what a sift keeps: appends reserve their places with an atomic on a
// shared counter, and the block publishes them together at the end, with one global atomic,
// where each warp would otherwise wait its turn at the one global counter in L2. What does not
// fit goes straight to the global list, so any number of keys works.
template <unsigned kCapacity>
struct Stage {
  unsigned count;  // places reserved; past kCapacity, the rest went straight to the global list
  unsigned long long base;  // where the block's staged keys go in the global list
  Key keys[kCapacity];
  std::size_t indices[kCapacity];
};
constexpr unsigned kStagedWinners = 256;
constexpr unsigned kStagedCandidates = 1024;

// Appends (key, index) for the lanes where `take` holds: into the block's stage while it has
// room, the rest to the global list (of `limit` places: once its count is past the limit, the
// list has failed and the rest are neither kept nor counted). Every lane of the warp must call it.
template <unsigned kCapacity>
__device__ void stage_append(bool take, Key key, std::size_t index, Stage<kCapacity>* stage,
                             Key* keys, std::size_t* indices, unsigned long long* count,
                             unsigned long long limit = kNoLimit) {
  // keep() calls this for the winners and for the candidates, and a warp seldom has both: skip
  // the reservations when no lane takes.
  if (!__any_sync(course::kFullWarp, take)) return;
  const unsigned at = warp_reserve(take, &stage->count);
  const bool staged = take && at < kCapacity;
  if (staged) {
    stage->keys[at] = key;
    stage->indices[at] = index;
  }
  const bool spill = take && !staged;
  if (limit != kNoLimit && __any_sync(course::kFullWarp, spill)) {
    const unsigned long long so_far = __shfl_sync(course::kFullWarp, __ldcg(count), 0);
    if (so_far > limit) return;  // failed already: no more atomics on the count
  }
  warp_append(spill, key, index, keys, indices, count, limit);
}

// Publishes the block's stage to the global list. Every thread of the block must call it.
template <unsigned kCapacity>
__device__ void publish_stage(Stage<kCapacity>* stage, Key* keys, std::size_t* indices,
                              unsigned long long* count, unsigned long long limit = kNoLimit) {
  __syncthreads();  // every append is in
  const unsigned staged = stage->count < kCapacity ? stage->count : kCapacity;
  if (threadIdx.x == 0 && staged > 0) stage->base = atomicAdd(count, staged);
  __syncthreads();  // the block's place in the list is known
  const unsigned long long base = stage->base;
  for (unsigned i = threadIdx.x; i < staged && base + i < limit; i += blockDim.x) {
    keys[base + i] = stage->keys[i];
    indices[base + i] = stage->indices[i];
  }
}

// What a sift keeps, and where: the same for every thread of a block, so the block keeps one
// copy, in shared memory.
struct Sift {
  Choice choice;  // the digits chosen so far
  bool last;      // every digit is chosen: a match is the k-th largest key itself
  Digit next;     // the next digit, counted for the candidates
  SelectState* s;
  Key* winner_keys;
  std::size_t* winner_indices;
  Key* candidate_keys;  // where the candidates go (none when `last`)
  std::size_t* candidate_indices;
  unsigned long long* candidates;  // their count
  unsigned* bins;                  // the block's histogram of the next digit
  Stage<kStagedWinners>* winner_stage;
  Stage<kStagedCandidates>* candidate_stage;
};

// One key the warp's vote found wanted (at or above the prefix): above it, a winner; matching
// it, a candidate for the next digit, or, when every digit is chosen, equal to the k-th largest
// key, and taken while fewer than `remaining` are. Every lane of the warp must call it (valid =
// false: no key). Out of line: inlined at each of its calls, it would not fit in the instruction
// cache.
__device__ __noinline__ void keep(const Sift* sift, Key key, std::size_t index, bool valid) {
  const Choice& choice = sift->choice;
  const Key top = key & choice.mask;
  const bool match = valid && top == choice.prefix;
  bool win = (valid && top > choice.prefix) || (match && choice.take_all);
  const bool equal = match && !choice.take_all && sift->last;
  // The k-th largest key itself: the first `remaining` that come are taken.
  const unsigned long long taken = warp_reserve(equal, &sift->s->taken);
  win = win || (equal && taken < choice.remaining);
  stage_append(win, key, index, sift->winner_stage, sift->winner_keys, sift->winner_indices,
               &sift->s->winners);
  const bool candidate = match && !choice.take_all && !sift->last;
  if (candidate) atomicAdd(&sift->bins[sift->next.of(key)], 1u);
  stage_append(candidate, key, index, sift->candidate_stage, sift->candidate_keys,
               sift->candidate_indices, sift->candidates);
}

// The hot path of a sift: few keys are wanted, so the warp votes first, and only a warp with a
// wanted key calls keep().
struct Sifter {
  const Sift* sift;
  Key mask;  // the choice's, in registers
  Key prefix;

  __device__ bool wanted(Key key) const { return (key & mask) >= prefix; }
  __device__ void operator()(Key key, std::size_t index, bool valid) const {
    if (__any_sync(course::kFullWarp, valid && wanted(key))) keep(sift, key, index, valid);
  }
};

// Every buffer of a select.
struct SelectBuffers {
  Key* winner_keys;
  std::size_t* winner_indices;
  Key* candidate_keys[2];
  std::size_t* candidate_indices[2];
};

// The block's shared memory for a sift.
struct SiftSpace {
  Sift sift;
  Stage<kStagedWinners> winners;
  Stage<kStagedCandidates> candidates;
};

// Sets the block's sift for keys measured against `choice` (`round`: the digit chosen last;
// candidates go to buffer round % 2 and are counted by the next digit), and returns its hot path.
__device__ inline Sifter start_sift(SiftSpace* space, const Choice& choice, int round,
                                    SelectState* s, const SelectBuffers& b, unsigned* bins) {
  zero_bins(bins);
  const bool last = round + 1 == kDigits || choice.take_all;
  if (threadIdx.x == 0) {
    space->sift = {choice,
                   last,
                   digit_plan(last ? round : round + 1),
                   s,
                   b.winner_keys,
                   b.winner_indices,
                   b.candidate_keys[round % 2],
                   b.candidate_indices[round % 2],
                   &s->candidates[round % 2],
                   bins,
                   &space->winners,
                   &space->candidates};
    space->winners.count = 0;
    space->candidates.count = 0;
  }
  __syncthreads();  // the block's sift is set
  return {&space->sift, choice.mask, choice.prefix};
}

// The end of a sift: the block publishes what it staged, and adds its histogram of the next digit
// to the global one (histogram: nullptr when nobody needs it). Every thread of the block.
__device__ inline void end_sift(SiftSpace* space, unsigned long long* histogram) {
  const Sift& sift = space->sift;
  publish_stage(&space->winners, sift.winner_keys, sift.winner_indices, &sift.s->winners);
  if (sift.last) return;
  publish_stage(&space->candidates, sift.candidate_keys, sift.candidate_indices, sift.candidates);
  if (histogram != nullptr) merge_bins(sift.bins, sift.next.bins(), histogram);
}

// Sifts this block's share of a list of `count` keys (and their indices), a warp at a time.
__device__ inline void sift_list(const Sifter& sifter, const Key* keys, const std::size_t* indices,
                                 unsigned long long count) {
  const std::size_t lane = threadIdx.x % course::kWarpSize;
  const std::size_t threads = course::grid_stride();
  for (std::size_t first = course::first_index() - lane; first < count; first += threads) {
    const std::size_t i = first + lane;
    const bool valid = i < count;
    // From L2: other blocks wrote the list in this kernel.
    sifter(valid ? __ldcg(&keys[i]) : 0, valid ? __ldcg(&indices[i]) : 0, valid);
  }
}

// Calls f(i, key) for i = threadIdx.x, + blockDim.x, ... below count: every block over the whole
// list. The keys are read from L2 (other blocks wrote them in this kernel), 8 per thread at a
// time: one at a time, each would wait its own round trip.
template <typename F>
__device__ void for_each_key_in_block(const Key* keys, unsigned long long count, F&& f) {
  constexpr unsigned kAtOnce = 8;
  for (unsigned long long first = threadIdx.x; first < count; first += kAtOnce * blockDim.x) {
    Key batch[kAtOnce];
#pragma unroll
    for (unsigned u = 0; u < kAtOnce; ++u) {
      const unsigned long long i = first + u * blockDim.x;
      batch[u] = i < count ? __ldcg(&keys[i]) : 0;
    }
#pragma unroll
    for (unsigned u = 0; u < kAtOnce; ++u) {
      const unsigned long long i = first + u * blockDim.x;
      if (i < count) f(i, batch[u]);
    }
  }
}

}  // namespace lesson06
