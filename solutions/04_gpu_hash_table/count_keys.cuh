// Exercise 1 (lesson 04), solved: the bucket's lock held while its list is searched and, when the
// key is not there, extended.
#pragma once

#include <cstdint>

#include "count_keys_support.cuh"  // CountEntry, CountTable, bucket_of, new_entry, lock_of (grading/)

namespace exercise04 {

// Counts one occurrence of `key`: the entry of its bucket that holds it gets count + 1, or, when
// there is none, a new entry (key, 1) goes at the head of the bucket's list.
__device__ void count_key(const CountTable& table, std::uint32_t key) {
  const std::uint32_t bucket = bucket_of(table, key);
  const BucketLock lock = lock_of(table, bucket);
  // The search and the insert are one step: without the lock around both, two threads could each
  // miss the key and each add an entry for it.
  lock.lock();
  CountEntry* entry = table.heads[bucket];
  while (entry != nullptr && entry->key != key)
    entry = entry->next;
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
