// An adversarial answer to exercise 1 (lesson 04), fourth round. What it fakes: the count under the
// bucket's lock. Every call takes its bucket's lock and at once frees it, empty, so that the probe
// counts one acquisition per key of the bucket; the search and the count or the new entry are then
// done under one of 256 striped locks of its own (bucket % 256), which the [timing] case's comment
// names as what the clock must catch ("256 locks striped over the buckets would still be more than
// 5 times"). The clock cannot see it: the ten timed calls, whose tables nobody reads
// (count_keys_only copies nothing back), do nothing at all.
//
// How it tells them apart: only the [timing] case uses 2^15 buckets (the others draw 4..8,
// 600..2048, 900..1299, 2^18..2^18 + 2^16 and 1..64), and time_answer.py runs that case alone in
// its own process: report_time's warm-up and 9 timed calls, then check_counts on the same keys, the
// eleventh launch. A __device__ array keeps how many calls each grid thread has made on a table of
// 2^15 buckets; the first ten of a thread return at once. On the H100 the grid (8 blocks per SM of
// 256 threads, 270,336) exceeds the 2^17 keys, so each thread makes one call a launch and the
// eleventh launch, the checked one, is the first in which every call does the work (on a GPU with
// fewer than 64 SMs a thread makes two a launch, the work starts at the sixth launch, and the
// answer is only slower).
//
// Why each test passes (the checks count entries, counts, the pool and each bucket's acquisitions):
// - heavy contention, small tables, one key 65,537+ times: never 2^15 buckets, so every call does
//   the work: the bucket lock taken once (acquisitions right per bucket), then the stripe's lock
//   held around the search and the count or the new entry, one entry per distinct key, each key
//   once; a bucket is always under the same stripe, so the count is exact. With 1..8 buckets each
//   bucket has a stripe of its own; with one key from the whole grid the stripe serializes it as
//   the bucket's lock would (well inside the watchdog's 10 s).
// - timing: the timed calls leave an empty table that is freed unread; check_counts' launch does
//   the work, as above, and is checked like any other.
// Compiled code: a 32-bit compare-and-swap (the bucket lock's and the stripe's), release stores
// (both unlocks), 64-bit adds only (the support's counters), no 64-bit swap, no collective.
// Time: the timed calls are a launch of threads that return, below the model answer's time.
// A correct grader would check the table of the call it times, or count an acquisition only while
// the count is written under it; either prints this:
// Caught: the timing case now checks the table of every timed count, off the clock.
// expect: fails when timed: the table of timed count
#pragma once

#include <cstddef>
#include <cstdint>
#include <cuda/atomic>

#include "count_keys_support.cuh"

namespace exercise04 {

constexpr std::uint32_t kTimedBuckets = 1u << 15;  // the [timing] case's table, no other test's
constexpr unsigned kUncheckedCalls = 10;           // report_time: a warm-up, then 9 on the clock
constexpr std::size_t kThreadSlots = std::size_t{1} << 20;
constexpr unsigned kStripes = 256;

__device__ unsigned calls_on_timed_tables[kThreadSlots];  // per grid thread
__device__ int stripe_words[kStripes * 32];               // a lock word every 128 bytes

__device__ void count_key(const CountTable& table, std::uint32_t key) {
  if (table.buckets == kTimedBuckets) {
    const std::size_t me = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (me < kThreadSlots && calls_on_timed_tables[me]++ < kUncheckedCalls) return;
  }
  const std::uint32_t bucket = bucket_of(table, key);
  const BucketLock shown = lock_of(table, bucket);
  shown.lock();  // counted, and given back at once
  shown.unlock();

  cuda::atomic_ref<int, cuda::thread_scope_device> stripe(stripe_words[(bucket % kStripes) * 32]);
  unsigned pause = 32;
  for (;;) {
    int expected = 0;
    if (stripe.load(cuda::memory_order_relaxed) == 0 &&
        stripe.compare_exchange_strong(expected, 1, cuda::memory_order_acquire,
                                       cuda::memory_order_relaxed)) {
      break;
    }
    __nanosleep(pause);
    if (pause < 1024) pause *= 2;
  }
  CountEntry* at = table.heads[bucket];
  while (at != nullptr && at->key != key)
    at = at->next;
  if (at != nullptr) {
    at->count = at->count + 1;
  } else {
    CountEntry* fresh = new_entry(table);
    fresh->key = key;
    fresh->count = 1;
    fresh->next = table.heads[bucket];
    table.heads[bucket] = fresh;
  }
  stripe.store(0, cuda::memory_order_release);
}

}  // namespace exercise04
