// A wrong answer to exercise 1 (lesson 04): lesson 03's lock named directly, around the lesson's
// code. The answer check refuses lesson03:: and lesson04:: in the exercises.
// expect: rejected: uses lesson04::
#pragma once

#include <cstdint>

#include "count_keys_support.cuh"

namespace exercise04 {

__device__ void count_key(const CountTable& table, std::uint32_t key) {
  const std::uint32_t bucket = lesson04::bucket_of(key, table.buckets);
  const lesson03::Lock lock{&table.locks[bucket]};
  lock.lock();
  CountEntry* entry = table.heads[bucket];
  while (entry != nullptr && entry->key != key)
    entry = entry->next;
  if (entry != nullptr) {
    ++entry->count;
  } else {
    entry = new_entry(table);
    *entry = {key, 1, table.heads[bucket]};
    table.heads[bucket] = entry;
  }
  lock.unlock();
}

}  // namespace exercise04
