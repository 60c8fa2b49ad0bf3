// A wrong answer to exercise 1 (lesson 03): a ticket lock with every access relaxed, as the book's
// lock has no fences. Nothing orders the critical sections, so by the CUDA memory model a holder
// may read a stale total or publish its write late. On the H100 every test of the exercise passed
// with it (docs/results/h100-80gb-hbm3/grade_unseen.txt: it was kept in grading/unseen/); its
// compiled code shows it, on any machine: no acquire, no release.
// expect: compiled: lacks an acquire
#pragma once

#include <cuda/atomic>

namespace exercise03 {

struct TicketLock {
  unsigned int* next;
  unsigned int* serving;

  using Counter = cuda::atomic_ref<unsigned int, cuda::thread_scope_device>;

  __device__ void lock() const {
    const unsigned int ticket = Counter(*next).fetch_add(1, cuda::memory_order_relaxed);
    while (Counter(*serving).load(cuda::memory_order_relaxed) != ticket) {
    }
  }
  __device__ void unlock() const {
    Counter turn(*serving);
    turn.store(turn.load(cuda::memory_order_relaxed) + 1, cuda::memory_order_relaxed);
  }
};

}  // namespace exercise03
