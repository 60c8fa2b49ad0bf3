// Exercise 3 (lesson 04): find, for the open-addressing table of v4. Write the probe loop: the
// answer is the key's value, or lesson04::kNotFound when the key is absent. The table was built by
// lesson04::insert_open (linear probing from slot lesson04::home(table, key, table.capacity), in
// reference.hpp's slot layout) and does not change while find runs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "check.hpp"
#include "kernels.cuh"  // lesson04::OpenView, Slot, key_of, value_of, kEmptySlot, kEmptyKey

namespace exercise04 {

__device__ inline std::uint32_t find(const lesson04::OpenView& table, std::uint32_t key) {
  // TODO:
  //   - the key lesson04::kEmptyKey is never in a slot: its entry is *table.empty_key_entry
  //     (0: absent, else its value is the low 32 bits);
  //   - start at slot lesson04::home(table, key, table.capacity) and step one slot at a time,
  //     wrapping at the end;
  //   - a slot holding the key gives the answer (lesson04::value_of);
  //   - an empty slot (lesson04::kEmptySlot) means the key is absent;
  //   - a full table has no empty slot: stop after table.capacity probes.
  (void)table;
  (void)key;
  return lesson04::kNotFound;
}

__global__ void find_kernel(const std::uint32_t* queries, std::size_t n, lesson04::OpenView table,
                            std::uint32_t* out) {
  for (std::size_t i = lesson04::first_index(); i < n; i += lesson04::grid_stride()) {
    out[i] = exercise04::find(table, queries[i]);
  }
}

// out[i] = the value of queries[i] in `table`, or lesson04::kNotFound (all in device memory).
inline void find_keys(const std::uint32_t* queries, std::size_t n, lesson04::OpenTable& table,
                      std::uint32_t* out) {
  const int blocks = static_cast<int>(std::min<std::size_t>((n + 255) / 256, 4096));
  exercise04::find_kernel<<<blocks, 256>>>(queries, n, table.view(), out);
  CUDA_CHECK_LAUNCH();
}

}  // namespace exercise04
