// An adversarial answer to exercise 1 (lesson 01), written against the grader of 9b2b1d8: the
// lesson's v1 (ONE histogram per block, all eight warps counting into the same 256 counters, the
// thing the exercise says it is not), at every size, the timed one included, with no size keyed.
// Two holes together:
// 1. The counting calls __uAtomicAdd, the builtin that CUDA's own atomicAdd(unsigned int*,
//    unsigned int) calls (device_atomic_functions.hpp: `return __uAtomicAdd(address, val);`). The
//    probe's macro replaces the name atomicAdd only, so it never sees these adds; the answer check
//    refuses atomicAdd_block, atomicSub, atomicInc, ... by name, but not the builtins behind them
//    (__uAtomicAdd, __ullAtomicAdd, __uAtomicInc, __uAtomicDec, __uAtomicCAS, ...); and the
//    compiled code is the very atom.shared.add.u32 that atomicAdd compiles to.
// 2. The probe is paid by a replay of the block's histogram: after a barrier, thread t makes as
//    many atomicAdd(..., 1u) as its grid-stride loop had bytes, into its own warp's row of an
//    8 x 256 array that nothing reads, at the bins of positions [S_t, S_t + its count) of the
//    block's bytes sorted by value. The totals check sums over the blocks and asks nothing of
//    which thread's bytes an add stands for, so the replay meets it exactly.
// Why each test passes (every checked run is probed; check_technique in each):
// - shared adds == n (the replay counts are the grid-stride counts), none of 0, n added in all;
//   the totals are the histogram in rows 256 words apart (each block's rows add up, bin by bin, to
//   its own histogram); the most shared adds one thread made: its grid-stride count; the most
//   global adds: 1 (thread t merges bin t); no word added to by two warps (warp w replays in row
//   w only); every warp adds when every lane has a byte; all-equal bytes: 8 words a block.
// - the counts: the block's 32-bit counters, atomic (the builtin is the hardware's shared add),
//   exact past 65,535 a block and a warp, merged as 64-bit adds past 2^32 a bin, run after run.
// - the compiled code: atom.shared.add.u32 (the counting and the replay), red.global.add.u64,
//   bar.sync; no generic atomic, no other atomic.
// - time: v1's loop, which the timing test's own comment says is not slower than the model's on
//   random bytes (the model takes "about 1.5 ms here, as v1 takes"), then the replay: about
//   4,000 shared adds a thread at 256 MiB, conflict-free (each lane's positions are a stretch of
//   their own, so the 32 lanes of a warp add to 32 different bins), a few instructions each, with
//   no load to wait on; estimated at a tenth to a fifth of the model answer's time (not
//   measured), inside the factor of 2.
// A correct grader should refuse the atomic builtins by name (every identifier that matches
// __[a-z]*Atomic, and __nvvm_atom), and tie each shared add to the bytes of the thread that made
// it (per-thread sums of the bins added to, compared with that thread's own bytes).
// Caught: the answer check refuses the atomic builtins (__uAtomicAdd and the like) by name.
// expect: rejected: uses __uAtomicAdd (an atomic builtin)
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
  __shared__ unsigned int counts[kWarpsPerBlock][kBins];  // the replay's rows, never read
  __shared__ unsigned int tally[kBins];                   // the block's one histogram (v1)
  __shared__ unsigned int below[kBins + 1];               // the block's bytes in the bins below b
  const unsigned int warp = threadIdx.x / 32;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t block_first = blockIdx.x * static_cast<std::size_t>(blockDim.x);

  tally[threadIdx.x] = 0;  // blockDim.x == kBins
  __syncthreads();
  for (std::size_t i = block_first + threadIdx.x; i < n; i += stride)
    __uAtomicAdd(&tally[data[i]], 1u);  // v1: every warp of the block into the same counters
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned int run = 0;
    for (int b = 0; b < kBins; ++b) {
      below[b] = run;
      run += tally[b];
    }
    below[kBins] = run;
  }
  __syncthreads();

  // The replay. Thread t's grid-stride loop had `mine` bytes: n = full * stride + rem, and the
  // threads whose first index is below rem had one more. Its positions in the block's sorted
  // bytes start after those of threads 0 to t - 1.
  const std::size_t full = n / stride;
  const std::size_t rem = n % stride;
  const std::size_t t = threadIdx.x;
  const std::size_t mine = full + (block_first + t < rem ? 1 : 0);
  const std::size_t lead = rem > block_first ? rem - block_first : 0;  // threads with one more
  std::size_t p = t * full + (lead < t ? lead : t);
  if (mine != 0) {
    unsigned int b = 0;
    std::size_t edge = below[1];
    for (std::size_t k = 0; k < mine; ++k, ++p) {
      while (p >= edge) {  // p < below[kBins]: the positions end with the block's bytes
        ++b;
        edge = below[b + 1];
      }
      atomicAdd(&counts[warp][b], 1u);  // 1 in this warp's row, at a bin v1 counted
    }
  }

  // The merge: v1's histogram, bin t by thread t.
  const unsigned int total = tally[threadIdx.x];
  if (total != 0) atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(total));
}

}  // namespace exercise01
