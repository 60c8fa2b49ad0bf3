// A wrong answer to exercise 3 (lesson 04): erase empties the slot. The erased keys are gone, but
// a search for a key placed further along the same run now stops at the hole and misses it.
// expect: fails: CHECK\( empty_after == empty_before \)
#pragma once

#include <cstdint>

#include "erase_support.cuh"

namespace exercise04 {

__device__ inline std::uint32_t slot_of(const Table& table, std::uint32_t key) {
  std::uint32_t s = home(table, key);
  for (std::uint32_t probes = 0; probes < table.capacity; ++probes) {
    const Slot slot = table.slots[s];
    if (slot == kEmptySlot) break;
    if (key_of(slot) == key) return s;
    s = s + 1 == table.capacity ? 0 : s + 1;
  }
  return table.capacity;
}

__device__ void erase(const Table& table, std::uint32_t key) {
  if (key == kEmptyKey) {
    *table.empty_key_entry = 0;
    return;
  }
  const std::uint32_t s = slot_of(table, key);
  if (s < table.capacity) table.slots[s] = kEmptySlot;
}

__device__ std::uint32_t find(const Table& table, std::uint32_t key) {
  if (key == kEmptyKey) {
    const Slot entry = *table.empty_key_entry;
    return entry != 0 ? value_of(entry) : kNotFound;
  }
  const std::uint32_t s = slot_of(table, key);
  return s < table.capacity ? value_of(table.slots[s]) : kNotFound;
}

}  // namespace exercise04
