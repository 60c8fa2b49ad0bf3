// Exercise 1 (lesson 03): a ticket lock, correct on today's GPUs. v1a's lock lets in whichever
// waiting thread's compare-and-swap lands first; a ticket lock lets them in in the order they
// arrived, like the numbered tickets at a counter. Write lock() and unlock(); the tests use them to
// add every block's sum into one plain int, from many blocks per SM, and watch the order of entry.
#pragma once

#include <cuda/atomic>

namespace exercise03 {

// A view of two counters in device memory that the host zeroed before the first use: `next`, the
// next ticket to hand out, and `serving`, the ticket whose holder may enter. It only holds the
// pointers, so it is safe to pass to a kernel by value.
struct TicketLock {
  unsigned int* next;
  unsigned int* serving;

  // Returns once this thread holds the lock. Threads enter in the order they took their tickets,
  // and whatever the previous holder wrote inside its critical section is visible afterwards.
  __device__ void lock() const {
    // TODO: take a ticket: an atomic fetch-and-add of 1 on *next returns it (no one else gets the
    //   same one). Then wait until *serving equals it, reading *serving with acquire ordering
    //   (cuda::atomic_ref<unsigned int, cuda::thread_scope_device> and
    //   cuda::memory_order_acquire); __nanosleep between reads keeps the waiting cheap.
  }

  // Lets the next ticket in. Everything this thread wrote inside the critical section must be
  // visible to the next holder.
  __device__ void unlock() const {
    // TODO: *serving + 1, stored with release ordering. Only the holder writes *serving.
  }
};

}  // namespace exercise03
