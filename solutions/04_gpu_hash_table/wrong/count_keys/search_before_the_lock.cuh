// A wrong answer to exercise 1 (lesson 04): a race. The list is searched before the lock is taken,
// and the lock guards only the insert: two threads with the same new key both miss it, and both
// add an entry for it.
// expect: fails: a key that is in the table more than once
#pragma once

#include <cstdint>

#include "count_keys_support.cuh"

namespace exercise04 {

__device__ void count_key(const CountTable& table, std::uint32_t key) {
  const std::uint32_t bucket = bucket_of(table, key);
  const BucketLock lock = lock_of(table, bucket);
  CountEntry* entry = table.heads[bucket];
  while (entry != nullptr && entry->key != key)
    entry = entry->next;
  lock.lock();
  if (entry != nullptr) {
    ++entry->count;
  } else {
    entry = new_entry(table);
    entry->key = key;
    entry->count = 1;
    entry->next = table.heads[bucket];
    table.heads[bucket] = entry;
  }
  lock.unlock();
}

}  // namespace exercise04
