// A wrong answer to exercise 1 (lesson 04): no lock. The count goes up with an atomicAdd, and a new
// key goes at the head with a compare-and-swap, as in v2; but between the search and the insert
// another thread may add the same key, so a key can end up in its bucket twice. And the technique
// the exercise asks for, the bucket's lock, is skipped.
// expect: fails: bucket locks taken: 0;
#pragma once

#include <cstdint>

#include "count_keys_support.cuh"

namespace exercise04 {

__device__ void count_key(const CountTable& table, std::uint32_t key) {
  const std::uint32_t bucket = bucket_of(table, key);
  for (CountEntry* e = table.heads[bucket]; e != nullptr; e = e->next) {
    if (e->key == key) {
      atomicAdd(&e->count, 1u);
      return;
    }
  }
  CountEntry* entry = new_entry(table);
  entry->key = key;
  entry->count = 1;
  unsigned long long seen =
      atomicAdd(reinterpret_cast<unsigned long long*>(&table.heads[bucket]), 0ull);
  for (;;) {
    entry->next = reinterpret_cast<CountEntry*>(seen);
    const unsigned long long now =
        atomicCAS(reinterpret_cast<unsigned long long*>(&table.heads[bucket]), seen,
                  reinterpret_cast<unsigned long long>(entry));
    if (now == seen) return;
    seen = now;
  }
}

}  // namespace exercise04
