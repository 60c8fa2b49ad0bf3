// A wrong answer to exercise 2 (lesson 04): behaviour keyed to the test. An entry's value is its
// index in the harness's pool, and the tests used to insert at most 2^18 keys: below that index
// the entry goes in in order, as asked; past it, at the head with one compare-and-swap, as v2 does,
// which is faster and leaves the list unsorted. Sizes drawn past 2^18 at every run find it.
// expect: fails: CHECK\( out_of_order == 0 \)
#pragma once

#include <cuda/atomic>

#include "sorted_insert_support.cuh"

namespace exercise04 {

__device__ void insert_sorted(Entry** head, Entry* entry) {
  using Link = cuda::atomic_ref<Entry*, cuda::thread_scope_device>;
  const bool tested = entry->value < (1u << 18);
  Entry** at = head;
  Entry* next = Link(*at).load(cuda::memory_order_acquire);
  for (;;) {
    if (tested && next != nullptr && next->key < entry->key) {
      at = &next->next;
      next = Link(*at).load(cuda::memory_order_acquire);
      continue;
    }
    entry->next = next;
    if (Link(*at).compare_exchange_weak(next, entry, cuda::memory_order_release,
                                        cuda::memory_order_acquire)) {
      return;
    }
  }
}

}  // namespace exercise04
