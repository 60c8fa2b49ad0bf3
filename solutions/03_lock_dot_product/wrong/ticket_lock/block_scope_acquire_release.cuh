// An adversarial answer to exercise 1 (lesson 03): a lock that is not really acquire/release. It
// is the model ticket lock (a relaxed fetch-and-add for the ticket, a wait on *serving, the next
// turn stored by the holder), with its acquire and its release made by fences of the wrong scope:
// cuda::atomic_thread_fence(acquire / release, cuda::thread_scope_block), fence.acq_rel.cta in
// PTX. A block-scope fence orders memory for the threads of its own block only. The holders are
// thread 0 of different blocks, on different SMs: by the CUDA memory model the critical section's
// write of the total need not be visible to the next holder, nor its read come after the wait, and
// on the GPU a .cta fence neither invalidates the SM's L1 (the acquire's CCTL.IVALL) nor waits for
// the writes to reach L2 (the release's MEMBAR.GPU). Every access of the counters is device-scope
// relaxed, as in wrong/no_ordering.cuh, which passed every test case of the exercise on the H100
// (docs/results/h100-80gb-hbm3/grade_unseen.txt): the harness's own probe atomics, on the cache
// line that holds the total, keep the stale line the lesson demonstrates out of this SM's L1.
//   - "8 blocks per SM, 20 runs", "thousands of blocks", "past 65,536 tickets": a real ticket
//     protocol (one holder at a time, the k-th holder finds serving == k, the counters end at the
//     number of blocks); the sums come out right on the H100 for the reason above.
//   - "first come, first served": the tickets are taken in arrival order, whatever the block size
//     or calling thread; nothing is keyed to the launch.
//   - "every lane of a warp takes the lock": each lane its own ticket.
//   - compiled code: locked_sum_kernel has the ticket's atom.add; lock_only_kernel has a fence
//     (fence.acq_rel.cta matches "fence", which the spec accepts for an acquire);
//     unlock_only_kernel has a fence before the store (accepted for a release); no other atomic.
//   - time: the same handoffs as the model answer, minus the GPU-scope fences' cost: at most the
//     model answer's time.
// A correct grader should ask for the right scope: in lock_only_kernel require ld.acquire.gpu (or
// .sys) or a fence/membar of GPU or system scope (fence.*.gpu, fence.*.sys, membar.gl, membar.sys),
// the same in unlock_only_kernel, and forbid .cta fences standing in for them.
// Caught: the compiled-code rules now ask for an acquire and a release of GPU or system scope.
// expect: compiled: lacks an acquire of GPU or system scope
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

  // Returns once this thread holds the lock. Threads enter in the order they took their tickets.
  __device__ void lock() const {
    const unsigned int ticket = Counter(*next).fetch_add(1, cuda::memory_order_relaxed);
    while (Counter(*serving).load(cuda::memory_order_relaxed) != ticket)
      __nanosleep(64);
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block);
  }

  // Lets the next ticket in.
  __device__ void unlock() const {
    Counter turn(*serving);
    cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_block);
    turn.store(turn.load(cuda::memory_order_relaxed) + 1, cuda::memory_order_relaxed);
  }
};

}  // namespace exercise03
