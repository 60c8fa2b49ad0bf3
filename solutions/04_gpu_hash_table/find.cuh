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
  if (key == lesson04::kEmptyKey) {
    const lesson04::Slot entry = *table.empty_key_entry;
    return entry != 0 ? lesson04::value_of(entry) : lesson04::kNotFound;
  }
  std::uint32_t s = lesson04::home(table, key, table.capacity);
  for (std::uint32_t probes = 0; probes < table.capacity; ++probes) {
    const lesson04::Slot slot = table.slots[s];
    if (lesson04::key_of(slot) == key) return lesson04::value_of(slot);
    if (slot == lesson04::kEmptySlot) return lesson04::kNotFound;
    s = s + 1 == table.capacity ? 0 : s + 1;
  }
  return lesson04::kNotFound;  // every slot seen: a full table without the key
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
