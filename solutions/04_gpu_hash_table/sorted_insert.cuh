// Exercise 2 (lesson 04), solved: walk to the first link that points at a key no smaller, and swap
// the entry into that link; after a failed swap, go on from the same link.
#pragma once

#include <cuda/atomic>

#include "sorted_insert_support.cuh"  // Entry (grading/)

namespace exercise04 {

// Links `entry`, whose key and value are set, into the list that starts at *head, keeping the list
// sorted by key, smallest first (equal keys in any order). Other threads insert into the same list
// at the same time; a link changes only by compare-and-swap, and nothing is ever removed.
__device__ void insert_sorted(Entry** head, Entry* entry) {
  using Link = cuda::atomic_ref<Entry*, cuda::thread_scope_device>;
  Entry** at = head;  // the link the entry will follow
  // Acquire: the entry a link points at was released with its fields set, so they can be read.
  Entry* next = Link(*at).load(cuda::memory_order_acquire);
  for (;;) {
    if (next != nullptr && next->key < entry->key) {  // the entry belongs further on
      at = &next->next;
      next = Link(*at).load(cuda::memory_order_acquire);
      continue;
    }
    entry->next = next;
    // Release: entry's key, value and next are visible to whoever follows the new link. On
    // failure, `next` is what the link holds now: an entry another thread put right here, whose
    // key may still be smaller than ours, so the loop looks again from the same link. (Entries are
    // never removed, so `at` is still in the list.)
    if (Link(*at).compare_exchange_weak(next, entry, cuda::memory_order_release,
                                        cuda::memory_order_acquire)) {
      return;
    }
  }
}

}  // namespace exercise04
