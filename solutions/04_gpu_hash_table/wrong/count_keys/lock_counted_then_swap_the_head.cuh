// A wrong answer to exercise 1 (lesson 04): the probe fooled, the technique skipped. It takes and
// frees the bucket's lock once per key, so each bucket's lock is counted as taken once per key;
// then, outside the lock, it raises a found key's count with atomicAdd or pushes a new entry with
// a compare-and-swap on the head, as v2 does. Two threads with the same new key can both push it,
// which a run may or may not show; its compiled code shows the head swapped, on any machine.
// expect: compiled: has a 64-bit compare-and-swap or exchange
#pragma once

#include <cstdint>

#include "count_keys_support.cuh"

namespace exercise04 {

__device__ void count_key(const CountTable& table, std::uint32_t key) {
  const std::uint32_t bucket = bucket_of(table, key);
  const BucketLock lock = lock_of(table, bucket);
  lock.lock();
  lock.unlock();
  for (CountEntry* e = table.heads[bucket]; e != nullptr; e = e->next) {
    if (e->key == key) {
      atomicAdd(&e->count, 1u);
      return;
    }
  }
  CountEntry* entry = new_entry(table);
  entry->key = key;
  entry->count = 1;
  auto* head = reinterpret_cast<unsigned long long*>(&table.heads[bucket]);
  unsigned long long seen = atomicAdd(head, 0ull);
  for (;;) {
    entry->next = reinterpret_cast<CountEntry*>(seen);
    __threadfence();
    const unsigned long long now =
        atomicCAS(head, seen, reinterpret_cast<unsigned long long>(entry));
    if (now == seen) return;
    seen = now;
  }
}

}  // namespace exercise04
