// A wrong answer to exercise 3 (lesson 04): a bug the old inputs never reached. Find stops after
// table.capacity probes, but erase does not: it is right for every key that is in the table, and
// for an absent key while the table has an empty slot; in a table with none, an erase of an absent
// key goes round for ever. The old tests erased only keys that were there.
// expect: hangs
#pragma once

#include <cstdint>

#include "erase_support.cuh"

namespace exercise04 {

__device__ void erase(const Table& table, std::uint32_t key) {
  if (key == kEmptyKey) {
    *table.empty_key_entry = 0;
    return;
  }
  for (std::uint32_t s = home(table, key);; s = s + 1 == table.capacity ? 0 : s + 1) {
    const Slot slot = table.slots[s];
    if (slot == kEmptySlot) return;
    if (key_of(slot) == key) {
      table.slots[s] = kTombstone;
      return;
    }
  }
}

__device__ std::uint32_t find(const Table& table, std::uint32_t key) {
  if (key == kEmptyKey) {
    const Slot entry = *table.empty_key_entry;
    return entry != 0 ? value_of(entry) : kNotFound;
  }
  std::uint32_t s = home(table, key);
  for (std::uint32_t probes = 0; probes < table.capacity; ++probes) {
    const Slot slot = table.slots[s];
    if (slot == kEmptySlot) return kNotFound;
    if (key_of(slot) == key) return value_of(slot);
    s = s + 1 == table.capacity ? 0 : s + 1;
  }
  return kNotFound;
}

}  // namespace exercise04
