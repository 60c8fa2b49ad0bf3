// A wrong answer to exercise 1 (lesson 04): the technique skipped, one lock for the whole table.
// Every key is counted under bucket 0's lock, whatever its bucket: right, and once per key as the
// old probe counted, but every count in the table waits for every other. Counting each bucket's
// acquisitions shows it.
// expect: fails: CHECK\( other_buckets == 0 \)
#pragma once

#include <cstdint>

#include "count_keys_support.cuh"

namespace exercise04 {

__device__ void count_key(const CountTable& table, std::uint32_t key) {
  const std::uint32_t bucket = bucket_of(table, key);
  const BucketLock lock = lock_of(table, 0);
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
