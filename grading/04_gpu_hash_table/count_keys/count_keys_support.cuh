// What exercise 1 (lesson 04) gives the student's file: the counting table's layout, a fresh entry
// from its pool, and a lock per bucket (lesson 03's correct lock, which here also counts how often
// each bucket's lock is taken, for the tests).
#pragma once

#include <cstdint>

#include "layout.hpp"  // lesson04::bucket_of, the book's hash
#include "lock.cuh"    // lesson03::Lock

namespace exercise04 {

// One distinct key and how many times it was counted; `next` chains the entries of a bucket.
struct CountEntry {
  std::uint32_t key;
  std::uint32_t count;
  CountEntry* next;
};

// A chained table of counts, as a kernel sees it: `buckets` list heads (null: empty), a pool of
// entries handed out in order, and one lock word per bucket (0: free), with a count of its
// acquisitions.
struct CountTable {
  CountEntry** heads;
  CountEntry* pool;
  unsigned long long* pool_used;  // entries handed out so far
  int* locks;                     // one per bucket
  unsigned long long*
      acquisitions;  // per bucket: how many times its lock was taken (for the tests)
  std::uint32_t buckets;
};

// The bucket a key belongs to: the book's hash, key % buckets.
__device__ inline std::uint32_t bucket_of(const CountTable& table, std::uint32_t key) {
  return lesson04::bucket_of(key, table.buckets);
}

// A fresh entry from the pool, which holds one entry per key counted: never more than needed.
__device__ inline CountEntry* new_entry(const CountTable& table) {
  return &table.pool[atomicAdd(table.pool_used, 1ull)];
}

// A bucket's lock: taking it is an acquire and freeing it a release (lesson 03), so what one holder
// wrote to the bucket's list is what the next holder reads.
struct BucketLock {
  int* word;
  unsigned long long* acquisitions;
  __device__ void lock() const {
    lesson03::Lock{word}.lock();
    atomicAdd(acquisitions, 1ull);
  }
  __device__ void unlock() const { lesson03::Lock{word}.unlock(); }
};

__device__ inline BucketLock lock_of(const CountTable& table, std::uint32_t bucket) {
  return {&table.locks[bucket], &table.acquisitions[bucket]};
}

}  // namespace exercise04
