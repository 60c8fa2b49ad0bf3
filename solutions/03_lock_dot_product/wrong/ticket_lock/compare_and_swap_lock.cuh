// A wrong answer to exercise 1 (lesson 03): the lesson's own v1a lock, copied, on the word `next`:
// correct mutual exclusion and ordering, but no tickets. Holders enter in whatever order their
// compare-and-swaps land, and the counters do not count the entries.
// expect: fails: holders entered out of their ticket's turn
#pragma once

#include <cuda/atomic>

namespace exercise03 {

struct TicketLock {
  unsigned int* next;
  unsigned int* serving;

  using Word = cuda::atomic_ref<unsigned int, cuda::thread_scope_device>;

  __device__ void lock() const {
    for (;;) {
      unsigned int expected = 0;
      if (Word(*next).compare_exchange_strong(expected, 1u, cuda::memory_order_acquire,
                                              cuda::memory_order_relaxed)) {
        return;
      }
      __nanosleep(64);
    }
  }
  __device__ void unlock() const { Word(*next).store(0u, cuda::memory_order_release); }
};

}  // namespace exercise03
