// A wrong answer to exercise 1 (lesson 03): a correct ticket lock whose waiters sleep 100
// microseconds between looks at *serving. Every handoff then waits, on average, for most of the
// next waiter's sleep: tens of microseconds instead of a few. Right every time, and first come,
// first served; only its time shows it, against the model answer's at 4096 handoffs.
// expect: slow
#pragma once

#include <cuda/atomic>

namespace exercise03 {

struct TicketLock {
  unsigned int* next;
  unsigned int* serving;

  using Counter = cuda::atomic_ref<unsigned int, cuda::thread_scope_device>;

  __device__ void lock() const {
    const unsigned int ticket = Counter(*next).fetch_add(1, cuda::memory_order_relaxed);
    while (Counter(*serving).load(cuda::memory_order_acquire) != ticket)
      __nanosleep(100000);
  }
  __device__ void unlock() const {
    Counter turn(*serving);
    turn.store(turn.load(cuda::memory_order_relaxed) + 1, cuda::memory_order_release);
  }
};

}  // namespace exercise03
