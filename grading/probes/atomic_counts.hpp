// What the atomic probe (atomic_probe.cuh) reports, in plain C++ for the tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace grading {

// A block's shared memory seen in 4-byte words: 64 Ki words cover the largest shared memory a block
// can have on any GPU today (227 KiB on an H100, plus the 1 KiB the system reserves first).
constexpr unsigned kProbedSharedWords = 1u << 16;

struct AtomicCounts {
  unsigned long long shared_adds = 0;   // atomicAdd calls on shared memory
  unsigned long long global_added = 0;  // what the global ones added, in all
  unsigned long long global_adds = 0;   // on global memory
  unsigned long long global_ones = 0;   // of those, the ones that added exactly 1
  unsigned long long shared_zeros = 0;  // shared-memory calls that added no count (0, a fraction)
};

// A shared word's mark, per block: 0 (no add), the adding warp's number plus 1 (1 to 32), or
// kWordOfManyWarps once two warps of the block have added to it.
constexpr unsigned char kWordOfManyWarps = 0xFF;

// What one probed run of a histogram kernel saw.
struct AtomicReport {
  AtomicCounts counts;
  int blocks = 0;
  int threads = 0;                         // per block
  unsigned most_shared_adds = 0;           // the most shared-memory atomicAdd calls one thread made
  unsigned most_global_adds = 0;           // the most global ones
  std::vector<unsigned> shared_words_hit;  // per block: how many distinct shared words it added to
  std::vector<unsigned> words_of_many_warps;  // per block: of those, how many two warps added to
  std::vector<unsigned> warps_that_added;     // per block: a bit for each warp that added to a word
  // Per shared word (kProbedSharedWords of them), what the shared adds added to it, over all
  // blocks.
  std::vector<unsigned long long> word_totals;
  // Per thread of the grid, two sums over its shared adds: of the words it added to, and of their
  // squares (thread i's at 2 i and 2 i + 1).
  std::vector<unsigned long long> thread_words;
};

}  // namespace grading
