// A wrong answer to exercise 3 (lesson 04): no limit on the probes. Right while the table has an
// empty slot; in a table with none, a search for an absent key goes round for ever.
// expect: hangs
#pragma once

#include <cstdint>

#include "erase_support.cuh"

namespace exercise04 {

__device__ inline std::uint32_t slot_of(const Table& table, std::uint32_t key) {
  for (std::uint32_t s = home(table, key);; s = s + 1 == table.capacity ? 0 : s + 1) {
    const Slot slot = table.slots[s];
    if (slot == kEmptySlot) return table.capacity;
    if (key_of(slot) == key) return s;
  }
}

__device__ void erase(const Table& table, std::uint32_t key) {
  if (key == kEmptyKey) {
    *table.empty_key_entry = 0;
    return;
  }
  const std::uint32_t s = slot_of(table, key);
  if (s < table.capacity) table.slots[s] = kTombstone;
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
