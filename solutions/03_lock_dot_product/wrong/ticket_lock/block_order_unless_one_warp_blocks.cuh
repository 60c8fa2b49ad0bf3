// An adversarial answer to exercise 1 (lesson 03): behaviour keyed to the launch shape of the
// first-come-first-served probe. The queue that measures arrival order is the only kernel of the
// tests with one-warp blocks (blockDim.x == 32); the locked sums, the 65,537-block run and the
// timing all use 256 threads. With one-warp blocks this is a real ticket lock. With any other
// block size it takes a ticket (so `next` ends at the number of blocks) but then waits until
// *serving equals its block's number: blocks enter in blockIdx order, whoever came first
// (enters_in_block_order.cuh, which only the queue catches). Blocks are started in blockIdx order,
// so the grid never waits on a block that is not resident; the k-th holder finds serving == k,
// the counters end right, the acquire and release are there, and handoffs cost what the model
// answer's do. A grader that ran the arrival-order queue with the locked sums' block size would
// see the blocks enter in block order instead of arrival order.
// expect: fails: holders entered out of their arrival order
#pragma once

#include <cuda/atomic>

namespace exercise03 {

struct TicketLock {
  unsigned int* next;
  unsigned int* serving;

  using Counter = cuda::atomic_ref<unsigned int, cuda::thread_scope_device>;

  __device__ void lock() const {
    const unsigned int ticket = Counter(*next).fetch_add(1u, cuda::memory_order_relaxed);
    const unsigned int turn = blockDim.x == 32 ? ticket : blockIdx.x;
    while (Counter(*serving).load(cuda::memory_order_acquire) != turn)
      __nanosleep(32);
  }

  __device__ void unlock() const {
    Counter s(*serving);
    s.store(s.load(cuda::memory_order_relaxed) + 1u, cuda::memory_order_release);
  }
};

}  // namespace exercise03
