// An adversarial answer to exercise 1 (lesson 03): a warp-aggregated ticket, as lesson 01
// aggregated its atomics. The lanes of a warp that call lock() together elect a leader, which
// takes ONE ticket for all of them; every lane waits for that ticket's turn, and they all enter
// the critical section at once. unlock() likewise adds 1 once per warp. With one caller per warp
// it is exactly a correct ticket lock (acquire on the wait, release on the handover); with two or
// more lanes of a warp calling lock() together, mutual exclusion is gone: they are all inside at
// once. The tests only ever call lock() from thread 0 of a block (the locked sum and the queue),
// so no test has two callers in one warp, and every probe (overlaps, turns, counters, arrival
// order) sees a correct lock.
// expect: fails: FAILED:|did not finish in [0-9]+ s
#pragma once

#include <cuda/atomic>

namespace exercise03 {

struct TicketLock {
  unsigned int* next;
  unsigned int* serving;

  using Counter = cuda::atomic_ref<unsigned int, cuda::thread_scope_device>;

  __device__ void lock() const {
    const unsigned int lanes = __activemask();
    const int leader = __ffs(lanes) - 1;
    const int lane = static_cast<int>(threadIdx.x % 32);
    unsigned int ticket = 0;
    if (lane == leader) ticket = Counter(*next).fetch_add(1u, cuda::memory_order_relaxed);
    ticket = __shfl_sync(lanes, ticket, leader);  // one ticket for the warp's callers
    while (Counter(*serving).load(cuda::memory_order_acquire) != ticket)
      __nanosleep(32);
  }

  __device__ void unlock() const {
    const unsigned int lanes = __activemask();
    if (static_cast<int>(threadIdx.x % 32) == __ffs(lanes) - 1) {
      Counter turn(*serving);
      turn.store(turn.load(cuda::memory_order_relaxed) + 1u, cuda::memory_order_release);
    }
  }
};

}  // namespace exercise03
