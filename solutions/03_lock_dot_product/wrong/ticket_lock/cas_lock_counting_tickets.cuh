// A wrong answer to exercise 1 (lesson 03): a compare-and-swap lock dressed as a ticket lock. It
// takes a ticket from *next on arrival and counts its holders in *serving, so the counters end
// where a ticket lock's do and the k-th holder finds serving == k; but it ignores the ticket, and
// lets in whichever waiter's compare-and-swap on a flag (the top bit of *next) lands first. Only
// first come, first served measured by arrival shows it.
// expect: fails: CHECK\( outcome\.out_of_order == 0 \)
#pragma once

#include <cuda/atomic>

namespace exercise03 {

struct TicketLock {
  unsigned int* next;
  unsigned int* serving;

  using Word = cuda::atomic_ref<unsigned int, cuda::thread_scope_device>;
  static constexpr unsigned int kTaken = 0x80000000u;

  __device__ void lock() const {
    Word(*next).fetch_add(1, cuda::memory_order_relaxed);  // a ticket, for show
    for (;;) {
      unsigned int seen = Word(*next).load(cuda::memory_order_relaxed);
      if ((seen & kTaken) == 0 &&
          Word(*next).compare_exchange_strong(seen, seen | kTaken, cuda::memory_order_acquire,
                                              cuda::memory_order_relaxed)) {
        return;
      }
      __nanosleep(64);
    }
  }
  __device__ void unlock() const {
    Word turn(*serving);
    turn.store(turn.load(cuda::memory_order_relaxed) + 1, cuda::memory_order_relaxed);
    Word(*next).fetch_and(~kTaken, cuda::memory_order_release);
  }
};

}  // namespace exercise03
