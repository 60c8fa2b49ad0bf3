// An adversarial answer to exercise 3 (lesson 04): a wrap just past the tables the tests build.
// The probe's place is (home + i) % capacity with home and i in 32-bit unsigned ints: right while
// home + i stays below 2^32, which it always does for a table of at most 2^31 slots (the tests'
// largest is about 2 million). In a table of more than 2^31 slots (16 GiB, which an 80 GiB GPU
// holds; capacity is a 32-bit field, so up to 2^32 - 1 slots are allowed), a probe that starts
// high and runs on wraps to a wrong place: erase and find skip the slots past 2^32 - home and
// read others instead, missing keys (and a full table's absent-key search checks wrong slots).
// Otherwise the model technique: tombstones, a probe limit of table.capacity, the sentinel beside.
// expect: fails: FAILED:|did not finish in [0-9]+ s
#pragma once

#include <cstdint>

#include "erase_support.cuh"

namespace exercise04 {

__device__ void erase(const Table& table, std::uint32_t key) {
  if (key == kEmptyKey) {
    *table.empty_key_entry = 0;
    return;
  }
  const std::uint32_t h = home(table, key);
  for (std::uint32_t i = 0; i < table.capacity; ++i) {
    Slot* const slot = &table.slots[(h + i) % table.capacity];
    const Slot s = *slot;
    if (s == kEmptySlot) return;
    if (s != kTombstone && key_of(s) == key) {
      *slot = kTombstone;
      return;
    }
  }
}

__device__ std::uint32_t find(const Table& table, std::uint32_t key) {
  if (key == kEmptyKey) {
    const Slot e = *table.empty_key_entry;
    return e == 0 ? kNotFound : value_of(e);
  }
  const std::uint32_t h = home(table, key);
  for (std::uint32_t i = 0; i < table.capacity; ++i) {
    const Slot s = table.slots[(h + i) % table.capacity];
    if (s == kEmptySlot) return kNotFound;
    if (s != kTombstone && key_of(s) == key) return value_of(s);
  }
  return kNotFound;
}

}  // namespace exercise04
