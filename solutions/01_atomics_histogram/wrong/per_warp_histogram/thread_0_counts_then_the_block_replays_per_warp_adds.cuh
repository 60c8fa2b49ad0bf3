// An adversarial answer to exercise 1 (lesson 01), written against the grader of 9b2b1d8: no warp
// counts its bytes, and no atomicAdd counts anything. Thread 0 of each block reads every byte its
// block's 256 threads would have read and counts it with a plain increment into ONE histogram of
// the block (wrong/per_warp_histogram/thread_0_counts_the_block.cuh's counting, without atomics),
// and that histogram is what the merge adds to the bins. Then, to pay the probe, the block REPLAYS
// its histogram as shared atomicAdds: thread t makes exactly as many atomicAdd(..., 1u) as its
// grid-stride loop has bytes (the model answer's number), into its own warp's row of an 8 x 256
// array that nothing ever reads, at the bins of positions [S_t, S_t + its count) of the block's
// bytes sorted by value (S_t: the counts of the threads before it, in closed form). Each add's bin
// comes from thread 0's histogram, not from a byte the adding thread read. Only at n = 2^28, the
// one size the clock times and no probed run uses, does it count as the model answer does.
// The new check, "what the shared adds added to each word, summed over the blocks, is the
// histogram in 8 rows of 256 counters", was written to catch thread 0 counting beside decoy words
// (thread_0_counts_beside_decoy_words); it sums over the blocks and asks nothing of which
// thread's bytes an add stands for, so a replay of each block's own histogram meets it exactly.
// Why each test passes (every checked run is probed; check_technique in each):
// - shared adds == n: the threads' replay counts are their grid-stride counts, which add up to n;
//   none adds 0 or padding (every add is 1u on an unsigned word); what they added in all: n.
// - the totals are the histogram: word (w, b) gets, in each block, the positions of warp w's
//   threads that fall in bin b; summed over the 8 rows that is the block's count of b, and over
//   the blocks the byte count of b; the rows are 256 words apart (counts[warp][bin]).
// - the most shared adds one thread made: its grid-stride count, at most ceil(n / grid threads);
//   the most global adds: 1 (thread t merges bin t of thread 0's histogram).
// - no shared word added to by two warps: warp w adds only in row w. Every warp adds when every
//   lane has a byte (each thread replays as many adds as it has bytes). All-equal bytes: each
//   warp adds to its row's word of that value, 8 words a block.
// - the counts: thread 0's 32-bit counters (a block counts at most about 2^32 / 264 bytes, past
//   65,535 a bin easily) merged as 64-bit adds: exact at every size, past 2^32 in a bin, run
//   after run (no race: one thread counts, barriers before the replay and the merge).
// - the watchdog: the largest run, more than 2^32 bytes, has thread 0 read about 16 million
//   bytes a block, a load and a shared increment each: well under a second. The replay makes the
//   model answer's number of probed adds per thread.
// - the compiled code: atom.shared.add.u32 (the replay, and the model path), red.global.add.u64,
//   bar.sync; no generic atomic (every add indexes the __shared__ array itself), no other atomic.
// - time: n = 2^28 exactly is the model answer's code, so its time is the model's.
// A correct grader should tie each add to the bytes of the thread that made it: for example the
// probe sums, per thread, the bins its adds went to (and their squares), and the test compares
// them with the bytes of that thread's grid-stride loop (or per warp, per block); or the totals
// are kept per block and per warp and compared with each warp's own bytes; and it should time the
// answer at a size it also probes.
// Caught: the probe sums, per thread, the words of its shared adds and their squares, and the
// tests ask that they be those of the counters of the bytes the thread's own grid-stride loop read.
// expect: fails: the bins of each thread's shared adds
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
  __shared__ unsigned int counts[kWarpsPerBlock][kBins];  // a row per warp
  const unsigned int warp = threadIdx.x / 32;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t block_first = blockIdx.x * static_cast<std::size_t>(blockDim.x);
  if (n == (std::size_t{1} << 28)) {
    // The size the clock times, which no probed run uses: the model answer.
    for (int c = threadIdx.x; c < kWarpsPerBlock * kBins; c += blockDim.x)
      counts[c / kBins][c % kBins] = 0;
    __syncthreads();
    unsigned int* mine = counts[warp];
    for (std::size_t i = block_first + threadIdx.x; i < n; i += stride)
      atomicAdd(&mine[data[i]], 1u);
    __syncthreads();
    unsigned int total = 0;
    for (int w = 0; w < kWarpsPerBlock; ++w)
      total += counts[w][threadIdx.x];
    if (total != 0) atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(total));
    return;
  }

  // Every other size: thread 0 counts the block's bytes with plain increments.
  __shared__ unsigned int tally[kBins];      // the block's histogram
  __shared__ unsigned int below[kBins + 1];  // the block's bytes in the bins below b
  tally[threadIdx.x] = 0;                    // blockDim.x == kBins
  __syncthreads();
  if (threadIdx.x == 0) {
    const std::size_t width = static_cast<std::size_t>(kThreads);
    for (std::size_t step = block_first; step < n; step += stride) {
      const std::size_t end = n - step < width ? n : step + width;
      for (std::size_t i = step; i < end; ++i)
        ++tally[data[i]];
    }
    unsigned int run = 0;
    for (int b = 0; b < kBins; ++b) {
      below[b] = run;
      run += tally[b];
    }
    below[kBins] = run;
  }
  __syncthreads();

  // The replay. Thread t's grid-stride loop has `mine` bytes: n = full * stride + rem, and the
  // threads whose first index is below rem have one more. Its positions in the block's sorted
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
      atomicAdd(&counts[warp][b], 1u);  // 1 in this warp's row, at a bin thread 0 counted
    }
  }

  // The merge: thread 0's histogram, bin t by thread t.
  const unsigned int total = tally[threadIdx.x];
  if (total != 0) atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(total));
}

}  // namespace exercise01
