// A wrong answer to exercise 1 (lesson 04): no release on one path. When the key is found, the
// function returns holding the lock, and every later thread of that bucket waits for ever.
// expect: hangs
#pragma once

#include <cstdint>

#include "count_keys_support.cuh"

namespace exercise04 {

__device__ void count_key(const CountTable& table, std::uint32_t key) {
  const std::uint32_t bucket = bucket_of(table, key);
  const BucketLock lock = lock_of(table, bucket);
  lock.lock();
  for (CountEntry* e = table.heads[bucket]; e != nullptr; e = e->next) {
    if (e->key == key) {
      ++e->count;
      return;
    }
  }
  CountEntry* entry = new_entry(table);
  entry->key = key;
  entry->count = 1;
  entry->next = table.heads[bucket];
  table.heads[bucket] = entry;
  lock.unlock();
}

}  // namespace exercise04
