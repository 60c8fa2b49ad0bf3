// A wrong answer to exercise 1 (lesson 04): the technique skipped where only speed shows it. It
// takes the key's bucket lock, as the probe counts, and then a lock of its own for the whole table
// (a word in device memory), so every count in the table waits for every other. Right every time,
// the locks taken once per key of each bucket; but at 2^17 keys the one lock is handed over 2^17
// times, against the model answer's few hundred microseconds.
// expect: slow
#pragma once

#include <cstdint>

#include "count_keys_support.cuh"

namespace exercise04 {

__device__ int table_lock = 0;

__device__ void count_key(const CountTable& table, std::uint32_t key) {
  const std::uint32_t bucket = bucket_of(table, key);
  const BucketLock lock = lock_of(table, bucket);
  lock.lock();
  while (atomicCAS(&table_lock, 0, 1) != 0)
    __nanosleep(64);
  __threadfence();
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
  __threadfence();
  atomicExch(&table_lock, 0);
  lock.unlock();
}

}  // namespace exercise04
