// Exercise 1 (lesson 03), solved: a spin lock with acquire ordering when taken and release
// ordering when freed.
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
    cuda::atomic_ref<int, cuda::thread_scope_device> w(*word);
    for (;;) {
      int expected = 0;
      // Acquire: nothing inside the critical section moves before this, and it sees what the
      // previous holder released. Only read while the lock looks taken (test, then test-and-set).
      if (w.load(cuda::memory_order_relaxed) == 0 &&
          w.compare_exchange_strong(expected, 1, cuda::memory_order_acquire,
                                    cuda::memory_order_relaxed)) {
        return;
      }
      __nanosleep(64);
    }
  }

  // Frees the lock. Everything this thread wrote inside the critical section must be visible to
  // the next holder.
  __device__ void unlock() const {
    // Release: every write inside the critical section is visible before the word reads 0.
    cuda::atomic_ref<int, cuda::thread_scope_device>(*word).store(0, cuda::memory_order_release);
  }
};

}  // namespace exercise03
