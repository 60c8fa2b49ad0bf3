// A wrong answer to exercise 2 (lesson 04): the lesson's own v2, copied: every entry becomes the
// head of its list with one compare-and-swap. Every entry is there; the lists are not in order.
// expect: fails: CHECK\( out_of_order == 0 \)
#pragma once

#include <cuda/atomic>

#include "sorted_insert_support.cuh"

namespace exercise04 {

__device__ void insert_sorted(Entry** head, Entry* entry) {
  cuda::atomic_ref<Entry*, cuda::thread_scope_device> first(*head);
  Entry* seen = first.load(cuda::memory_order_relaxed);
  do {
    entry->next = seen;
  } while (!first.compare_exchange_weak(seen, entry, cuda::memory_order_release,
                                        cuda::memory_order_relaxed));
}

}  // namespace exercise04
