// What the tests of exercise 3 (lesson 01) call: the student's warp_aggregated_increment, run by
// its harness (warp_aggregated_harness.cu) in a probe kernel, in a histogram and in a timed kernel.
// Every one of them counts the add() calls the student's function makes, so no way of calling it
// goes unwatched.
#pragma once

#include <cstddef>
#include <cstdint>

namespace grading01 {

// One add(bin, count) the student's function made, and the lane that made it.
struct AddRecord {
  unsigned int bin;
  unsigned int count;
  unsigned int lane;
};

constexpr int kMostAddsLogged = 64;  // per pattern; more adds are counted, not logged

// The lanes of the probe's patterns: pattern p sits in warp p % warps_per_block of block
// p / warps_per_block, with `threads` threads a block (1 to 1024); the last warp of a block has
// only threads % 32 lanes when that is not 0. The lanes that exist in pattern p's warp:
unsigned existing_lanes(int pattern, int threads);

// Lane l of pattern p's warp, if bit l of d_active[p] is set and the lane exists, calls the
// student's function with d_bins[p * 32 + l] (any unsigned int). Its k-th add (in the order the
// calls reached the log) is d_log[p * kMostAddsLogged + k], for k < kMostAddsLogged, and d_adds[p]
// is how many it made.
void record_adds(const unsigned int* d_bins, const unsigned int* d_active, int patterns,
                 int threads, AddRecord* d_log, unsigned int* d_adds);

// The shared-memory histogram of v2 with every increment aggregated by the student's function:
// counts the n bytes at d_data into d_bins[0..255] (device memory), 256 threads a block. Returns
// how many add() calls the function made: one per distinct byte among each warp's 32 (its lanes
// read 32 consecutive bytes, aligned to 32).
unsigned long long warp_aggregated_histogram(const std::uint8_t* d_data, std::size_t n,
                                             unsigned long long* d_bins);

// The timed kernel: kTimingThreads threads a block, two blocks an SM; every lane of warp w of the
// grid calls the student's function kTimingRounds times, in round r with the bin timing_round(key,
// w, r) gives it, and counts into 256 shared bins, which are added into d_bins (device memory, 256,
// zeroed here). Returns how many add() calls the function made.
constexpr int kTimingThreads = 1024;
constexpr int kTimingRounds = 8192;
int timing_warps();
unsigned long long warp_aggregated_rounds(unsigned int key, unsigned long long* d_bins);

// The bins of the timed kernel, round r of warp w: the lanes below `cut` hold `below`, the others
// `rest` (a cut of 32 or more, half the time, gives every lane `below`; a cut of 0 every lane
// `rest`). So each call has one or two distinct bins, where aggregation pays most, and they change
// every round. (The harness and the tests are both compiled by nvcc.)
struct TimingRound {
  unsigned int cut;
  unsigned int below;
  unsigned int rest;
};
__host__ __device__ inline TimingRound timing_round(unsigned int key, unsigned int warp,
                                                    unsigned int round) {
  unsigned int h = (warp * 0x9E3779B1u) ^ (round * 0x85EBCA77u) ^ key;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return {(h >> 8) & 63u, (h + 1u + ((h >> 16) & 127u)) & 255u, h & 255u};
}

}  // namespace grading01
