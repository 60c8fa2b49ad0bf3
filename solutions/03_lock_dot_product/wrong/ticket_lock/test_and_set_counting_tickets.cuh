// A wrong answer to exercise 1 (lesson 03): a test-and-set lock dressed as a ticket lock. It
// counts arrivals in *next and holders in *serving, so the counters end where a ticket lock's do,
// but the lock itself is a flag in the top bit of *next, taken with fetch_or (an atomicOr, which
// no name check refuses): whoever's atomic lands first goes in. Its compiled code shows it on any
// machine: an atomic other than an add.
// expect: compiled: an atomic other than an add
#pragma once

#include <cuda/atomic>

namespace exercise03 {

struct TicketLock {
  unsigned int* next;
  unsigned int* serving;

  using Word = cuda::atomic_ref<unsigned int, cuda::thread_scope_device>;
  static constexpr unsigned int kTaken = 0x80000000u;

  __device__ void lock() const {
    Word(*next).fetch_add(1, cuda::memory_order_relaxed);  // counted, then ignored
    while (Word(*next).fetch_or(kTaken, cuda::memory_order_acquire) & kTaken)
      __nanosleep(64);
  }
  __device__ void unlock() const {
    Word turn(*serving);
    turn.store(turn.load(cuda::memory_order_relaxed) + 1, cuda::memory_order_relaxed);
    Word(*next).fetch_and(~kTaken, cuda::memory_order_release);
  }
};

}  // namespace exercise03
