// A wrong answer to exercise 2 (lesson 04) that the tests cannot see: the walk and the swap all
// relaxed, with one __threadfence() at the start, before the walk. The fence orders nothing that
// matters: by the CUDA memory model the swap may make the link visible before the entry's key and
// next, and a thread that follows a link may read the entry it reaches from before it was
// written. The compiled-code check sees a fence and lets it through (a fence is how a correct
// answer may order them too), and the H100 does not reorder these accesses in practice, so every
// test passes. Kept here, outside the wrong answers that must score zero, to show what testing
// cannot promise: a reader finds it.
#pragma once

#include <cuda/atomic>

#include "sorted_insert_support.cuh"

namespace exercise04 {

__device__ void insert_sorted(Entry** head, Entry* entry) {
  using Link = cuda::atomic_ref<Entry*, cuda::thread_scope_device>;
  __threadfence();
  Entry** at = head;
  Entry* next = Link(*at).load(cuda::memory_order_relaxed);
  for (;;) {
    if (next != nullptr && next->key < entry->key) {
      at = &next->next;
      next = Link(*at).load(cuda::memory_order_relaxed);
      continue;
    }
    entry->next = next;
    if (Link(*at).compare_exchange_weak(next, entry, cuda::memory_order_relaxed,
                                        cuda::memory_order_relaxed)) {
      return;
    }
  }
}

}  // namespace exercise04
