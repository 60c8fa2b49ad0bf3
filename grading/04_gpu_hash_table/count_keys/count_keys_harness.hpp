// What the tests of exercise 1 (lesson 04) call: the student's count_key, run by its harness
// (count_keys_harness.cu).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace grading04 {

// A counting table after the student's count_key has run once for every key, copied back.
struct CountedTable {
  // Each bucket's entries, (key, count), in list order, as far as the list could be followed.
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> buckets;
  std::size_t broken = 0;               // lists that left the pool, met a cycle, or shared an entry
  unsigned long long entries_used = 0;  // entries taken from the pool
  unsigned long long lock_acquisitions = 0;      // times a bucket's lock was taken, all buckets
  std::vector<unsigned long long> acquisitions;  // times each bucket's lock was taken
};

// Counts the n keys at d_keys (device memory) into a fresh table of `buckets` buckets, with the
// student's count_key, one call per key, from `blocks` blocks of `threads` threads.
CountedTable count_keys(const std::uint32_t* d_keys, std::size_t n, std::uint32_t buckets,
                        int blocks, int threads = 256);

// The same count, but nothing is copied back: what the [timing] test case times. The table is kept
// until the next such count (last_timed_table() copies it back).
void count_keys_only(const std::uint32_t* d_keys, std::size_t n, std::uint32_t buckets, int blocks);
CountedTable last_timed_table();

}  // namespace grading04
