// A wrong answer to exercise 1 (lesson 03) that the tests cannot see: a ticket lock whose every
// access is relaxed, with one __threadfence() at the start of lock(), before the ticket. The fence
// orders nothing that matters: by the CUDA memory model the critical section's reads may still
// happen before the load that saw the lock's turn come, and unlock()'s store may be seen before
// the holder's write. The compiled-code check sees a fence and lets it through (a fence is how a
// correct lock may acquire and release too), and the H100 does not reorder these accesses in
// practice, so every test passes. Kept here, outside the wrong answers that must score zero, to
// show what testing cannot promise: a reader finds it.
#pragma once

#include <cuda/atomic>

namespace exercise03 {

struct TicketLock {
  unsigned int* next;
  unsigned int* serving;

  using Counter = cuda::atomic_ref<unsigned int, cuda::thread_scope_device>;

  __device__ void lock() const {
    __threadfence();
    const unsigned int ticket = Counter(*next).fetch_add(1, cuda::memory_order_relaxed);
    while (Counter(*serving).load(cuda::memory_order_relaxed) != ticket)
      __nanosleep(64);
  }
  __device__ void unlock() const {
    Counter turn(*serving);
    turn.store(turn.load(cuda::memory_order_relaxed) + 1, cuda::memory_order_relaxed);
  }
};

}  // namespace exercise03
