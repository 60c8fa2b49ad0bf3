// A wrong answer to exercise 1 (lesson 03): unlock() does nothing, the mistake this lesson exists
// to teach in its bluntest form. The first holder never lets the second in; every other block
// spins for ever. The watchdog stops the test within seconds.
// expect: hangs
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
      __nanosleep(64);
  }
  __device__ void unlock() const {}
};

}  // namespace exercise03
