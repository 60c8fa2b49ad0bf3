// A wrong answer to exercise 3 (lesson 04): find changes the table. When its probe meets a
// tombstone followed by an empty slot, it empties the tombstone (no key's probe needs to pass it),
// a tidy-up that a sequential table could do. The answers come out right, and the old checks of
// the slots ran before any find; but find must only read (the harness runs many finds at once,
// and the statement's table does not change while find runs). Its compiled code shows a store of
// a slot in find, on any machine.
// expect: compiled: find_kernel has a 64-bit store
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
  if (s < table.capacity) table.slots[s] = kTombstone;
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
    const std::uint32_t after = s + 1 == table.capacity ? 0 : s + 1;
    if (slot == kTombstone && table.slots[after] == kEmptySlot) table.slots[s] = kEmptySlot;
    s = after;
  }
  return kNotFound;
}

}  // namespace exercise04
