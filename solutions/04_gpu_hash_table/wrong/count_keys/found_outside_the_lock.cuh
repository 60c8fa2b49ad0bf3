// An adversarial answer to exercise 1 (lesson 04): the lock taken for the probe, not for the work.
// The bucket's list is walked first without the lock (entries are never removed, so a key found
// there stays there): a found key's count goes up with atomicAdd, and then the bucket's lock is
// taken and at once released, empty, so that it is counted once per key of the bucket as the tests
// want. Only a key not found takes the lock for real: it walks the list again under the lock and
// pushes a new entry, published with a release store of the head. Each distinct key once, every
// count right, the pool one entry per key, each bucket's lock taken once per key: every check
// passes, and it is faster than the model answer (the lock is held only for new keys). Nothing in
// the compiled-code spec looks at the count's update: a 32-bit atomic add is allowed, and the
// head's store is a plain 64-bit release store, not a swap.
// expect: compiled: has an atomic add on a count
#pragma once

#include <cstdint>
#include <cuda/atomic>

#include "count_keys_support.cuh"

namespace exercise04 {

namespace {
using HeadRef = cuda::atomic_ref<CountEntry*, cuda::thread_scope_device>;

__device__ CountEntry* find_in(CountEntry* e, std::uint32_t key) {
  while (e != nullptr) {
    if (e->key == key) return e;
    e = cuda::atomic_ref<CountEntry*, cuda::thread_scope_device>(e->next).load(
        cuda::memory_order_relaxed);
  }
  return nullptr;
}
}  // namespace

__device__ void count_key(const CountTable& table, std::uint32_t key) {
  const std::uint32_t bucket = bucket_of(table, key);
  const BucketLock lock = lock_of(table, bucket);
  CountEntry* const head = HeadRef(table.heads[bucket]).load(cuda::memory_order_acquire);
  CountEntry* found = find_in(head, key);
  if (found != nullptr) {
    atomicAdd(&found->count, 1u);
    lock.lock();  // (taken and left: "every key goes through its bucket's lock")
    lock.unlock();
    return;
  }
  lock.lock();
  CountEntry* const now = HeadRef(table.heads[bucket]).load(cuda::memory_order_relaxed);
  found = find_in(now, key);
  if (found != nullptr) {
    atomicAdd(&found->count, 1u);
  } else {
    CountEntry* const e = new_entry(table);
    e->key = key;
    e->count = 1;
    e->next = now;
    HeadRef(table.heads[bucket]).store(e, cuda::memory_order_release);
  }
  lock.unlock();
}

}  // namespace exercise04
