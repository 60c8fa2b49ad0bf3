// Exercise 2 (lesson 04): the lock-free head insert. Write push_front: make `entry` the first entry
// of the list that starts at *head, with one compare-and-swap on *head, retrying when another
// thread changed the head first. Thousands of threads push onto the same few heads at once.
#pragma once

#include <cuda/atomic>

#include <cstddef>
#include <cstdint>

#include "check.hpp"
#include "kernels.cuh"  // lesson04::Entry, ChainedView, ChainedTable, bucket_of

namespace exercise04 {

__device__ inline void push_front(lesson04::Entry** head, lesson04::Entry* entry) {
  cuda::atomic_ref<lesson04::Entry*, cuda::thread_scope_device> first(*head);
  lesson04::Entry* seen = first.load(cuda::memory_order_relaxed);
  do {
    entry->next = seen;  // on failure, compare_exchange_weak has put the new head in `seen`
  } while (!first.compare_exchange_weak(seen, entry, cuda::memory_order_relaxed));
}

__global__ void lock_free_insert_kernel(const std::uint32_t* keys, std::size_t n,
                                        lesson04::ChainedView table) {
  for (std::size_t i = lesson04::first_index(); i < n; i += lesson04::grid_stride()) {
    lesson04::Entry* entry = lesson04::fill_entry(table, keys[i], i);
    exercise04::push_front(&table.heads[lesson04::bucket_of(keys[i], table.buckets)], entry);
  }
}

// Puts the n keys (device memory) into `table` (empty, with a pool of at least n entries), with
// `blocks` blocks of 256 threads.
inline void lock_free_insert(const std::uint32_t* keys, std::size_t n,
                             lesson04::ChainedTable& table, int blocks) {
  exercise04::lock_free_insert_kernel<<<blocks, 256>>>(keys, n, table.view());
  CUDA_CHECK_LAUNCH();
}

}  // namespace exercise04
