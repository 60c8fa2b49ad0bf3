// A wrong answer to exercise 2 (lesson 04): after a failed compare-and-swap, it tries again at the
// same link with what the link holds now, without checking that key: an entry with a smaller key
// that went in meanwhile ends up after ours.
// expect: fails: CHECK\( out_of_order == 0 \)
#pragma once

#include <cuda/atomic>

#include "sorted_insert_support.cuh"

namespace exercise04 {

__device__ void insert_sorted(Entry** head, Entry* entry) {
  using Link = cuda::atomic_ref<Entry*, cuda::thread_scope_device>;
  Entry** at = head;
  Entry* next = Link(*at).load(cuda::memory_order_acquire);
  while (next != nullptr && next->key < entry->key) {
    at = &next->next;
    next = Link(*at).load(cuda::memory_order_acquire);
  }
  do {
    entry->next = next;
  } while (!Link(*at).compare_exchange_weak(next, entry, cuda::memory_order_release,
                                            cuda::memory_order_acquire));
}

}  // namespace exercise04
