// Exercise 1 (lesson 04): the book's key step, made correct. Insert every key into a chained table
// whose buckets each have a lock: entry i of the pool gets (keys[i], i) and goes at the head of
// its key's bucket, while that bucket's lock is held.
#pragma once

#include <cstddef>
#include <cstdint>

#include "check.hpp"
#include "kernels.cuh"  // lesson04::Entry, ChainedView, ChainedTable, bucket_of; course::Lock

namespace exercise04 {

__global__ void locked_insert_kernel(const std::uint32_t* keys, std::size_t n,
                                     lesson04::ChainedView table) {
  for (std::size_t i = lesson04::first_index(); i < n; i += lesson04::grid_stride()) {
    lesson04::Entry* entry = lesson04::fill_entry(table, keys[i], i);
    // TODO: find the bucket (lesson04::bucket_of(key, table.buckets)); take its lock
    //   (course::Lock{&table.locks[bucket]}); make the entry the new head of the bucket's list
    //   (entry->next = the old head; the head = entry); release the lock. Many blocks run at once,
    //   on every SM: the lock must order the head's read and write (acquire and release).
  }
}

// Puts the n keys (device memory) into `table` (empty, with a pool of at least n entries), with
// `blocks` blocks of 256 threads.
inline void locked_insert(const std::uint32_t* keys, std::size_t n, lesson04::ChainedTable& table,
                          int blocks) {
  exercise04::locked_insert_kernel<<<blocks, 256>>>(keys, n, table.view());
  CUDA_CHECK_LAUNCH();
}

}  // namespace exercise04
