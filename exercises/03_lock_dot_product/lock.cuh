// Exercise 1 (lesson 03): a spin lock that is correct on today's GPUs. Write lock() and unlock();
// the tests use them to add every block's sum into one plain int, from many blocks per SM.
#pragma once

#include <cuda/atomic>

namespace exercise03 {

// A view of a lock word in device memory (0: free, 1: taken), which the host zeroed before the
// first use. It only holds the pointer, so it is safe to pass to a kernel by value.
struct Lock {
  int* word;

  // Returns once this thread holds the lock. Whatever the previous holder wrote inside its
  // critical section must be visible to this thread afterwards.
  __device__ void lock() const {
    // TODO: spin until the word goes from 0 to 1 under this thread (a compare-and-swap), with
    //   acquire ordering once it succeeds: cuda::atomic_ref<int, cuda::thread_scope_device> and
    //   cuda::memory_order_acquire, or atomicCAS followed by __threadfence().
  }

  // Frees the lock. Everything this thread wrote inside the critical section must be visible to
  // the next holder.
  __device__ void unlock() const {
    // TODO: store 0 with release ordering (memory_order_release, or __threadfence() first).
  }
};

}  // namespace exercise03
