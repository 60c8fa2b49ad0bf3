// An adversarial answer to exercise 1 (lesson 01): the technique skipped wherever the clock does
// not look, and the clock looks at one size only. At every size but the timed one, warp 0 of each
// block reads and counts all of its block's bytes, 32 at a time, each byte into the histogram of
// the warp that would have read it (bytes 32 w to 32 w + 31 of each 256-byte step into warp w's),
// and the other seven warps only zero and merge: each warp does not count its own bytes in its own
// histogram, one warp of eight does all the counting, and the block's latency hiding is an eighth
// of the model's. This is wrong/per_warp_histogram/thread_0_counts_the_block.cuh done by a warp
// (so that the probe's counts, made once per group of lanes that call together, cost what the
// model's do), which the grading catches only by the clock. But the clock times 256 MiB, and no
// other test counts between 255 MiB and 4 GiB: there (2^28 - 2^20 <= n < 2^32) this answer runs the
// model's loop, every warp its own bytes.
// Why each test passes:
// - Every probed run (every size the tests check but the timed one): shared adds == n (each byte
//   once, by a lane of warp 0), none of 0; global adds one per nonzero bin and block; no shared
//   word added to by two warps (warp 0 is the only warp that adds: the probe marks which warp adds
//   to a word, not whose histogram the word is in); on all-equal bytes (2^21 or more) each block
//   adds to the value's word in each of the eight histograms: 8, as asked.
// - The counts are exact everywhere (eight histograms, summed per bin, merged as 64-bit adds), past
//   65,535 in a block and a warp and past 2^32 in a bin. Sizes: 4 MiB at most, 24 to 25 MiB, 2 to
//   4 MiB, and the two "past 65,535" sizes, at most 2 x SMs x 256 x 2,336 bytes + a grid step
//   (about 158 MB on an H100's 132 SMs), all below 2^28 - 2^20; the 2^32 test's n is past 2^32.
// - The watchdog: warp 0 makes as many probed calls as the model's eight warps together, one after
//   another; the largest run, more than 2^32 bytes, is about 2^32 / 264 / 32 = 508 thousand steps
//   of warp 0 in each block, a load and a probed add each: well under a second, far from the 10 s.
// - Time: the timed 256 MiB run (its n exactly 2^28) is the model's loop itself.
// - The compiled code: atom.shared.add.u32, red.global.add.u64, bar.sync, and nothing forbidden.
// A correct grader should time the answer at a size it also checks (or draw the timed size from
// the same ranges as the probed ones), or have the probe record whose histogram each warp adds to
// (the warp of the adding thread against the histogram the word lies in).
// Caught: every checked run is probed, and the probe now asks that every warp of a block add to a
// shared word wherever every lane has bytes (warp 0 alone adds here).
// expect: fails: fewer than their 8 warps added
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr int kBins = 256;
constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;

// Counts the n bytes at data into bins[0..255]. blockDim.x == kThreads.
__global__ void per_warp_histogram_kernel(const std::uint8_t* data, std::size_t n,
                                          unsigned long long* bins) {
  __shared__ unsigned int counts[kWarpsPerBlock][kBins];
  for (int c = threadIdx.x; c < kWarpsPerBlock * kBins; c += blockDim.x)
    counts[c / kBins][c % kBins] = 0;
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const bool timed =
      n >= (std::size_t{1} << 28) - (std::size_t{1} << 20) && n < (std::size_t{1} << 32);
  if (timed) {
    unsigned int* mine = counts[threadIdx.x / 32];
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += stride) {
      atomicAdd(&mine[data[i]], 1u);
    }
  } else if (threadIdx.x < 32) {
    for (std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x); first < n;
         first += stride) {
      for (int w = 0; w < kWarpsPerBlock; ++w) {
        const std::size_t i = first + 32 * w + threadIdx.x;  // the byte lane threadIdx.x of warp w
        if (i < n) atomicAdd(&counts[w][data[i]], 1u);       // would have read, in w's histogram
      }
    }
  }
  __syncthreads();
  unsigned int total = 0;
  for (int w = 0; w < kWarpsPerBlock; ++w)
    total += counts[w][threadIdx.x];
  if (total != 0) atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(total));
}

}  // namespace exercise01
