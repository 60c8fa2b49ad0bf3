// A wrong answer to exercise 3 (lesson 04): a bug the old inputs never reached. Erase stops at the
// first slot that holds the key or is empty, and writes a tombstone there either way: right for
// every key that is in the table, but an erase of a key that is not turns the empty slot that ends
// its probe into a tombstone. The old tests erased only keys that were there.
// expect: fails: CHECK\( changed == 0 \)
#pragma once

#include <cstdint>

#include "erase_support.cuh"

namespace exercise04 {

__device__ void erase(const Table& table, std::uint32_t key) {
  if (key == kEmptyKey) {
    *table.empty_key_entry = 0;
    return;
  }
  std::uint32_t s = home(table, key);
  for (std::uint32_t probes = 0; probes < table.capacity; ++probes) {
    const Slot slot = table.slots[s];
    if (slot == kEmptySlot || key_of(slot) == key) {
      table.slots[s] = kTombstone;
      return;
    }
    s = s + 1 == table.capacity ? 0 : s + 1;
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
