// An adversarial answer to exercise 2 (lesson 04): the ordering on the swap only. The walk's loads
// of the links are all relaxed, and the compare-and-swap is acq_rel ("acquire and release in one
// go"). The release half is right: the entry's fields go out with the link. But a thread that
// follows a link with a relaxed load may read the key of the entry it reaches from before it was
// written (the acquire comes only at the thread's own swap, after the walk has already compared
// keys), so an entry can be put after a larger key. The compiled-code check asks for an acquire
// and a release anywhere in the kernel, and atom.acq_rel.cas is both; the H100 forgives relaxed
// walks in practice (relaxed_links.cuh passes every test run there but the compiled check), so
// every test should pass.
// expect: compiled: lacks an acquire
#pragma once

#include <cuda/atomic>

#include "sorted_insert_support.cuh"

namespace exercise04 {

__device__ void insert_sorted(Entry** head, Entry* entry) {
  using Link = cuda::atomic_ref<Entry*, cuda::thread_scope_device>;
  Entry** at = head;
  Entry* seen = Link(*at).load(cuda::memory_order_relaxed);
  for (;;) {
    while (seen != nullptr && seen->key < entry->key) {
      at = &seen->next;
      seen = Link(*at).load(cuda::memory_order_relaxed);
    }
    entry->next = seen;
    if (Link(*at).compare_exchange_strong(seen, entry, cuda::memory_order_acq_rel,
                                          cuda::memory_order_relaxed))
      return;
    // failed: `seen` holds what *at holds now; walk on from the same link
  }
}

}  // namespace exercise04
