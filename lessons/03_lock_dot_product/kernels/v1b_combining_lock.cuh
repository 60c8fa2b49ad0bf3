// v1b: the lock holder adds the sums of the blocks waiting for it.
#pragma once

#include <cstddef>

#include <02_reduce/block_reduce.cuh>

#include "check.hpp"
#include "settings.cuh"
#include "v0_v1a_lock.cuh"

namespace lesson03 {

// v1b the lock holder adds for the waiting (v1a: every block takes the lock itself). A block
// leaves its sum in its slot, then, until its sum has been taken, tries the lock; the block that
// gets it claims every sum left so far (its own among them), adds them all to *c in one critical
// section, and releases. A block whose sum another holder took leaves without the lock. So a few
// critical sections serve the whole grid, instead of one per block. *c must be zero first.
__global__ void __launch_bounds__(kThreads)
    combining_lock_kernel(const float* a, const float* b, std::size_t n, Lock lock, Slots slots,
                          float* c) {
  enum Action { kWait, kLeave, kCollect };
  __shared__ int action;
  using DeviceAtomicWord = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;
  const float sum = source_block_dot(a, b, n);
  DeviceAtomicWord mine(slots.words[blockIdx.x]);
  if (threadIdx.x == 0) mine.store(slots.left(sum), cuda::memory_order_relaxed);
  for (;;) {
    if (threadIdx.x == 0) {
      action = slots.is_taken(mine.load(cuda::memory_order_relaxed)) ? kLeave
               : lock.try_lock()                                     ? kCollect
                                                                     : kWait;
      if (action == kWait) __nanosleep(64);
    }
    __syncthreads();  // thread 0's decision is in before anyone reads it
    const int now = action;
    __syncthreads();  // everyone has read it before thread 0 decides again
    if (now == kLeave) return;
    if (now == kCollect) break;
  }
  // Thread 0 holds the lock. The whole block claims the sums left so far: an atomic OR sets each
  // slot's taken bit and returns the word as it was, so a sum is claimed once, by one holder,
  // however many look at it. (On a slot from an earlier launch the bit changes nothing that
  // matters; a block that leaves its sum later overwrites the whole word.) The ORs on the slots
  // are independent of one another, so they travel to L2 together.
  float collected = 0;
#pragma unroll 4
  for (unsigned int j = threadIdx.x; j < gridDim.x; j += blockDim.x) {
    const unsigned long long was =
        DeviceAtomicWord(slots.words[j]).fetch_or(Slots::kTakenBit, cuda::memory_order_relaxed);
    if (slots.is_left(was)) collected += Slots::value(was);
  }
  __shared__ lesson02::WarpSlots<float> warp_sums;
  collected = lesson02::block_sum(collected, warp_sums);
  if (threadIdx.x == 0) {
    *c += collected;
    lock.unlock();
  }
}

inline void dot_combining_lock(const float* a, const float* b, std::size_t n, float* c,
                               Workspace& ws, Launch launch) {
  const int blocks = launch.blocks > 0 ? launch.blocks : full_grid(n);
  check_grid(blocks);
  CUDA_CHECK(cudaMemsetAsync(c, 0, sizeof(float), launch.stream));
  combining_lock_kernel<<<blocks, kThreads, 0, launch.stream>>>(a, b, n, ws.mutex.view(),
                                                                ws.next_slots(launch.stream), c);
  CUDA_CHECK_LAUNCH();
}

}  // namespace lesson03
