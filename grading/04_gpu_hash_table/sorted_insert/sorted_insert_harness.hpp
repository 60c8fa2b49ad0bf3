// What the tests of exercise 2 (lesson 04) call: the student's insert_sorted, run by its harness
// (sorted_insert_harness.cu).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "layout.hpp"  // lesson04::Entry

namespace grading04 {

// A chained table copied back: the heads as the GPU had them (pointers into its pool), the pool,
// and where the pool was on the GPU (lesson04::rebase turns the pointers into the copy's).
struct Chains {
  std::vector<lesson04::Entry*> heads;
  std::vector<lesson04::Entry> pool;
  const lesson04::Entry* device_pool = nullptr;
};

// Inserts the n keys at d_keys (device memory), entry i holding (keys[i], i), into a fresh table of
// `buckets` buckets (the book's hash) with the student's insert_sorted, from `blocks` blocks of 256
// threads.
Chains insert_all_sorted(const std::uint32_t* d_keys, std::size_t n, std::uint32_t buckets,
                         int blocks);

// The same inserts, but nothing is copied back: what the [timing] test case times. The table is
// kept until the next such inserts (last_timed_table() copies it back).
void insert_all_sorted_only(const std::uint32_t* d_keys, std::size_t n, std::uint32_t buckets,
                            int blocks);
Chains last_timed_table();

}  // namespace grading04
