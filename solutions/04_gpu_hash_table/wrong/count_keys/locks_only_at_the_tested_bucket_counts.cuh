// A wrong answer to exercise 1 (lesson 04): behaviour keyed to the test. With the bucket counts the
// tests used to try (4, 1024 and 2^18) it counts under the bucket's lock, as asked; with any other
// it walks the list and adds without a lock, a race that the old tests never ran. Bucket counts
// drawn from the seed at every run find it.
// expect: fails: CHECK\( got\.lock_acquisitions == n \)
#pragma once

#include <cstdint>

#include "count_keys_support.cuh"

namespace exercise04 {

__device__ void count_key(const CountTable& table, std::uint32_t key) {
  const std::uint32_t bucket = bucket_of(table, key);
  const bool tested = table.buckets == 4 || table.buckets == 1024 || table.buckets == (1u << 18);
  const BucketLock lock = lock_of(table, bucket);
  if (tested) lock.lock();
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
  if (tested) lock.unlock();
}

}  // namespace exercise04
