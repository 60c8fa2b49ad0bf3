// Exercise 1 (lesson 03), solved: a ticket from a fetch-and-add, a wait for its turn with acquire
// ordering, and the next turn given with release ordering.
#pragma once

#include <cuda/atomic>

namespace exercise03 {

// A view of two counters in device memory that the host zeroed before the first use: `next`, the
// next ticket to hand out, and `serving`, the ticket whose holder may enter. It only holds the
// pointers, so it is safe to pass to a kernel by value.
struct TicketLock {
  unsigned int* next;
  unsigned int* serving;

  using Counter = cuda::atomic_ref<unsigned int, cuda::thread_scope_device>;

  // Returns once this thread holds the lock. Threads enter in the order they took their tickets,
  // and whatever the previous holder wrote inside its critical section is visible afterwards.
  __device__ void lock() const {
    // Relaxed: the ticket only orders the waiters; the acquire below orders the data.
    const unsigned int ticket = Counter(*next).fetch_add(1, cuda::memory_order_relaxed);
    // Acquire: the reads inside the critical section happen after this, and see what the previous
    // holder released (from L2, not a stale line of this SM's L1).
    while (Counter(*serving).load(cuda::memory_order_acquire) != ticket)
      __nanosleep(64);
  }

  // Lets the next ticket in. Everything this thread wrote inside the critical section must be
  // visible to the next holder.
  __device__ void unlock() const {
    Counter turn(*serving);
    // Only the holder writes *serving, so a load and a store are enough; release: the critical
    // section's writes are visible before the next ticket's turn.
    turn.store(turn.load(cuda::memory_order_relaxed) + 1, cuda::memory_order_release);
  }
};

}  // namespace exercise03
