// A wrong answer to exercise 2 (lesson 04): a race. The place is found as it should be, but the
// link is changed with a plain store: two threads that found the same place overwrite each other,
// and one of their entries is lost.
// expect: fails: REQUIRE\( check\.ok\(n\) \)
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
  entry->next = next;
  Link(*at).store(entry, cuda::memory_order_release);
}

}  // namespace exercise04
