// Exercise 3 (lesson 04), solved: erase leaves a tombstone, which the probe of erase and find
// passes over; only an empty slot, or a whole lap of the table, ends a search.
#pragma once

#include <cstdint>

#include "erase_support.cuh"  // Slot, kEmptySlot, kTombstone, kEmptyKey, kNotFound, Table, home

namespace exercise04 {

// The slot that holds `key` (not kEmptyKey), or table.capacity when none does.
__device__ inline std::uint32_t slot_of(const Table& table, std::uint32_t key) {
  std::uint32_t s = home(table, key);
  for (std::uint32_t probes = 0; probes < table.capacity; ++probes) {
    const Slot slot = table.slots[s];
    if (slot == kEmptySlot) break;      // the key would have been placed here
    if (key_of(slot) == key) return s;  // a tombstone's key is kEmptyKey: never this one
    s = s + 1 == table.capacity ? 0 : s + 1;
  }
  return table.capacity;
}

// Erases `key` from the table, if it is there: its slot becomes kTombstone, or, for the key
// kEmptyKey, *table.empty_key_entry becomes 0. Many threads erase at once, each a different key.
__device__ void erase(const Table& table, std::uint32_t key) {
  if (key == kEmptyKey) {
    *table.empty_key_entry = 0;
    return;
  }
  const std::uint32_t s = slot_of(table, key);
  // Not empty: the keys further along this run must still be found.
  if (s < table.capacity) table.slots[s] = kTombstone;
}

// The value of `key`, or kNotFound. The table does not change while find runs; it may hold
// tombstones, and it may have no empty slot at all.
__device__ std::uint32_t find(const Table& table, std::uint32_t key) {
  if (key == kEmptyKey) {
    const Slot entry = *table.empty_key_entry;
    return entry != 0 ? value_of(entry) : kNotFound;
  }
  const std::uint32_t s = slot_of(table, key);
  return s < table.capacity ? value_of(table.slots[s]) : kNotFound;
}

}  // namespace exercise04
