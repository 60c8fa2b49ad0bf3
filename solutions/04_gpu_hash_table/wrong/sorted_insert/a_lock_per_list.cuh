// A wrong answer to exercise 2 (lesson 04): the technique skipped where only speed shows it. Each
// list is locked while an insert walks it: a compare-and-swap sets the low bit of the list's head
// (entries are 16-byte aligned, so the bit is free), the walk and the insert are plain, and a
// release store of the head clears it. Every entry is in place and every list in order, but a
// list takes one insert at a time, each walking it: with 64 lists of about 1024 keys, hundreds of
// times the model answer's time. (Its compiled code is a 64-bit compare-and-swap and stores, as the
// model's is.)
// expect: slow
#pragma once

#include <cstdint>

#include <cuda/atomic>

#include "sorted_insert_support.cuh"

namespace exercise04 {

__device__ void insert_sorted(Entry** head, Entry* entry) {
  using Link = cuda::atomic_ref<Entry*, cuda::thread_scope_device>;
  const auto locked = [](Entry* p) {
    return reinterpret_cast<Entry*>(reinterpret_cast<std::uintptr_t>(p) | 1u);
  };
  Entry* first = Link(*head).load(cuda::memory_order_relaxed);
  for (;;) {
    first = reinterpret_cast<Entry*>(reinterpret_cast<std::uintptr_t>(first) & ~std::uintptr_t{1});
    if (Link(*head).compare_exchange_weak(first, locked(first), cuda::memory_order_acquire,
                                          cuda::memory_order_relaxed)) {
      break;
    }
    __nanosleep(32);
  }
  // Holding the list: `first` is its head.
  if (first == nullptr || entry->key <= first->key) {
    entry->next = first;
    Link(*head).store(entry, cuda::memory_order_release);  // the new head, and the list unlocked
    return;
  }
  Entry* at = first;
  while (at->next != nullptr && at->next->key < entry->key)
    at = at->next;
  entry->next = at->next;
  at->next = entry;
  Link(*head).store(first, cuda::memory_order_release);
}

}  // namespace exercise04
