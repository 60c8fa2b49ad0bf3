// Exercise 2 (lesson 04): lock-free insertion that keeps each list sorted. v2 makes a new entry the
// head of its list with one compare-and-swap; here the entry goes where its key belongs, so that a
// search can stop at the first larger key. The compare-and-swap is now on the `next` of the entry
// before it, and the place may change while you look for it. Write insert_sorted; the harness calls
// it for every key, from thousands of threads on a few lists at once.
#pragma once

#include <cuda/atomic>

#include "sorted_insert_support.cuh"  // Entry (grading/)

namespace exercise04 {

// Links `entry`, whose key and value are set, into the list that starts at *head, keeping the list
// sorted by key, smallest first (equal keys in any order). Other threads insert into the same list
// at the same time; a link changes only by compare-and-swap, and nothing is ever removed.
__device__ void insert_sorted(Entry** head, Entry* entry) {
  // TODO: `at` is the link the entry would follow: at first the head, later some entry's `next`.
  //   Read *at (cuda::atomic_ref<Entry*, cuda::thread_scope_device>, acquire ordering, so the entry
  //   it points at can be read). While it points at an entry with a smaller key, move on to that
  //   entry's `next`. Then point entry->next at what *at holds, and compare-and-swap *at from that
  //   to `entry` (release ordering, so entry's fields are visible with it). If the swap fails, *at
  //   changed: another entry went in right here. Continue from the same `at`, with what it holds
  //   now, which compare_exchange has put in its first argument.
  (void)head;
  (void)entry;
}

}  // namespace exercise04
