// Spin locks for device code: the book's (SourceLock), which orders nothing, and a correct one
// (Lock), with acquire and release ordering. Both are views of an int in device memory (0: free,
// 1: taken) that the host zeroed: they hold only the pointer, so kernels take them by value.
// This lesson finishes a dot product under one lock; lesson 04 includes this file and gives every
// bucket of a hash table its own.
#pragma once

#include <cuda/atomic>

namespace lesson03 {

using DeviceAtomicInt = cuda::atomic_ref<int, cuda::thread_scope_device>;

// The source's lock, as printed: spin on atomicCAS until the word goes from 0 to 1; release with
// atomicExch. Both are atomic, but neither orders anything else: nothing stops the data written
// inside the critical section from reaching memory after the release, or a read inside it from
// being served by the SM's L1 cache, which may hold a value from before another block's update.
struct SourceLock {
  int* word;
  __device__ void lock() const {
    while (atomicCAS(word, 0, 1) != 0) {
    }
  }
  __device__ void unlock() const { atomicExch(word, 0); }
};

// A correct lock. Taking it is an acquire: no read or write inside the critical section can
// happen before it, and it sees everything the previous holder wrote (on the GPU, the SM's L1 is
// invalidated, so reads go to L2). Releasing it is a release: everything written inside is
// visible, GPU-wide, before the word reads 0 again. cuda::atomic_ref with these two memory orders
// says exactly that; in the source's terms, it is a __threadfence() after the CAS succeeds and
// another before the release.
struct Lock {
  int* word;

  // One attempt. Test, then test-and-set: while the lock is taken, a waiter only reads the word,
  // and tries the compare-and-swap (which needs the word to itself) when it may succeed.
  __device__ bool try_lock() const {
    DeviceAtomicInt w(*word);
    int expected = 0;
    return w.load(cuda::memory_order_relaxed) == 0 &&
           w.compare_exchange_strong(expected, 1, cuda::memory_order_acquire,
                                     cuda::memory_order_relaxed);
  }
  __device__ void lock() const {
    while (!try_lock())
      __nanosleep(64);  // back off: fewer requests queue at the word ahead of the holder's release
  }
  __device__ void unlock() const { DeviceAtomicInt(*word).store(0, cuda::memory_order_release); }
};

}  // namespace lesson03
