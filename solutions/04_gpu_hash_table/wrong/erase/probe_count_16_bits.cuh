// A wrong answer to exercise 3 (lesson 04): a 16-bit counter. The probes are counted in a
// std::uint16_t, which wraps at 65,536: in a table of up to 65,536 slots the search stops after
// table.capacity probes as it should, but in a full table of more, a search for an absent key
// never reaches the table's size and goes round for ever. The old tests' full table had 4096
// slots.
// expect: hangs
#pragma once

#include <cstdint>

#include "erase_support.cuh"

namespace exercise04 {

__device__ inline std::uint32_t slot_of(const Table& table, std::uint32_t key) {
  std::uint32_t s = home(table, key);
  for (std::uint16_t probes = 0; probes < table.capacity; ++probes) {
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
