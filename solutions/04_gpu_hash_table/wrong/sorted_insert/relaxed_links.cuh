// A wrong answer to exercise 2 (lesson 04): the walk and the swap with no memory order at all. The
// entries are found and swapped in as the model answer does, but every load of a link and the
// compare-and-swap are relaxed: by the CUDA memory model a thread that follows a new link may read
// the entry's key from before it was written. The H100 forgives it in practice; its compiled code
// shows it, on any machine: no acquire, no release.
// expect: compiled: lacks an acquire
#pragma once

#include <cuda/atomic>

#include "sorted_insert_support.cuh"

namespace exercise04 {

__device__ void insert_sorted(Entry** head, Entry* entry) {
  using Link = cuda::atomic_ref<Entry*, cuda::thread_scope_device>;
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
