// An adversarial answer to exercise 1 (lesson 03): the ordering put on the wrong access. The ticket
// is taken with a fetch-and-add in acq_rel order (atom.acq_rel.add), and everything else is
// relaxed: the wait's loads of *serving and unlock()'s store. The acquire happens before the wait,
// so nothing orders the critical section's reads after the load that saw the turn come; and the
// release is on the *next* lock() call's ticket, not on the store that hands the lock over, so
// the holder's write to the total may reach L2 after *serving moved on. The compiled-code check
// only asks for "an acquire" and "a release" anywhere in the kernel, and one acq_rel atomic is
// both; the H100 does not reorder these accesses in practice (no_ordering.cuh passed every run
// there), so the tests should pass it.
// expect: compiled: lacks an acquire
#pragma once

#include <cuda/atomic>

namespace exercise03 {

struct TicketLock {
  unsigned int* next;
  unsigned int* serving;

  using Counter = cuda::atomic_ref<unsigned int, cuda::thread_scope_device>;

  __device__ void lock() const {
    // acq_rel: "acquire and release in one go", so lock and unlock are both ordered.
    const unsigned int ticket = Counter(*next).fetch_add(1u, cuda::memory_order_acq_rel);
    while (Counter(*serving).load(cuda::memory_order_relaxed) != ticket)
      __nanosleep(32);
  }

  __device__ void unlock() const {
    Counter turn(*serving);
    turn.store(turn.load(cuda::memory_order_relaxed) + 1u, cuda::memory_order_relaxed);
  }
};

}  // namespace exercise03
