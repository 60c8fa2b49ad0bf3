// A wrong answer to exercise 1 (lesson 03): behaviour keyed to the old tests. It takes a ticket,
// then ignores it and waits until *serving equals its block's number: the blocks enter in the order
// of blockIdx.x. Where blocks come to the lock in that order, as they roughly do when a grid starts
// (and as they did in every test that only counted holders), it looks like a ticket lock; where
// they come in another order, the first to come waits for block 0.
// expect: fails: CHECK\( outcome\.out_of_order == 0 \)
#pragma once

#include <cuda/atomic>

namespace exercise03 {

struct TicketLock {
  unsigned int* next;
  unsigned int* serving;

  using Counter = cuda::atomic_ref<unsigned int, cuda::thread_scope_device>;

  __device__ void lock() const {
    Counter(*next).fetch_add(1, cuda::memory_order_relaxed);
    while (Counter(*serving).load(cuda::memory_order_acquire) != blockIdx.x)
      __nanosleep(64);
  }
  __device__ void unlock() const {
    Counter turn(*serving);
    turn.store(turn.load(cuda::memory_order_relaxed) + 1, cuda::memory_order_release);
  }
};

}  // namespace exercise03
