// An adversarial answer to exercise 1 (lesson 04): the lanes of a warp that count the same key
// combine first (__match_any_sync), and only the group's leader counts, under the bucket's lock,
// adding the group's size in one go (a new entry starts at that size). To keep the probe's
// "each bucket's lock taken once per key" the leader then takes and frees the lock once more for
// every other lane of its group, doing nothing inside. The table, the counts, the pool and the
// lock counts all come out as the tests want; but the keys are not each counted under the lock,
// and the empty acquisitions exist only to fool the count. The compiled-code spec has no rule about
// warp collectives, and the grid of the timing is hardly slower.
// expect: compiled: has a warp collective
#pragma once

#include <cstdint>

#include "count_keys_support.cuh"

namespace exercise04 {

__device__ void count_key(const CountTable& table, std::uint32_t key) {
  const unsigned lanes = __activemask();
  const unsigned group = __match_any_sync(lanes, key);
  const int lane = static_cast<int>(threadIdx.x % 32);
  if (lane != __ffs(group) - 1) return;  // another lane of the group counts this key
  const std::uint32_t times = static_cast<std::uint32_t>(__popc(group));
  const std::uint32_t bucket = bucket_of(table, key);
  const BucketLock lock = lock_of(table, bucket);
  lock.lock();
  CountEntry* e = table.heads[bucket];
  while (e != nullptr && e->key != key)
    e = e->next;
  if (e != nullptr) {
    e->count += times;
  } else {
    CountEntry* const fresh = new_entry(table);
    fresh->key = key;
    fresh->count = times;
    fresh->next = table.heads[bucket];
    table.heads[bucket] = fresh;
  }
  lock.unlock();
  for (std::uint32_t k = 1; k < times; ++k) {  // the probe's count: once per key of the bucket
    lock.lock();
    lock.unlock();
  }
}

}  // namespace exercise04
