// Exercise 1 (lesson 04): the book's key step, a list per bucket under the bucket's lock, used to
// count keys. v1 pushes every key as a new entry; here a key that is already in its bucket gets
// its count raised instead, so the table holds each distinct key once, with how often it came: the
// word count of a text, the histogram of a stream of ids. Finding a key and adding it must happen
// as one step, which is what the lock is for. Write count_key; the harness calls it once for every
// key, from thousands of threads at once.
#pragma once

#include <cstdint>

#include "count_keys_support.cuh"  // CountEntry, CountTable, bucket_of, new_entry, lock_of (grading/)

namespace exercise04 {

// Counts one occurrence of `key`: the entry of its bucket that holds it gets count + 1, or, when
// there is none, a new entry (key, 1) goes at the head of the bucket's list.
__device__ void count_key(const CountTable& table, std::uint32_t key) {
  // TODO: find the key's bucket (bucket_of) and take its lock (lock_of(table, bucket).lock()).
  //   Holding it: walk the bucket's list from table.heads[bucket]; if an entry has the key, add 1
  //   to its count; otherwise take a new_entry(table), fill it with (key, 1) and the old head, and
  //   make it the head. Then release the lock, on every path out.
  (void)table;
  (void)key;
}

}  // namespace exercise04
