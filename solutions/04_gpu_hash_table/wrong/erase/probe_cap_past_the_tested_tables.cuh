// An adversarial answer to exercise 3 (lesson 04): a probe limit that is not the table's size.
// Erase and find stop after min(table.capacity, 2^17) probes ("a cap, so that a search can never
// run long enough for the watchdog"). Every table the tests build has at most 2^17 slots where a
// run is long (the full tables: 4096 and 65,552 to 131,072 slots; load 0.9: at most ~134,000 slots,
// with runs of a few thousand), and in the big half-empty tables (2 million slots) runs are short,
// so the cap is never reached before the key or an empty slot. In a full or nearly full table of
// more than 2^17 slots, where the last keys inserted sit tens of thousands of slots past home, a
// key more than 2^17 slots from home is never found and never erased. Otherwise the model
// technique: tombstones passed over, an empty slot ends the search, the sentinel beside the slots.
// expect: fails: FAILED:|did not finish in [0-9]+ s
#pragma once

#include <cstdint>

#include "erase_support.cuh"

namespace exercise04 {

constexpr std::uint32_t kProbeCap = 1u << 17;

__device__ inline std::uint32_t probe_limit(const Table& table) {
  return table.capacity < kProbeCap ? table.capacity : kProbeCap;
}

__device__ void erase(const Table& table, std::uint32_t key) {
  if (key == kEmptyKey) {
    *table.empty_key_entry = 0;
    return;
  }
  std::uint32_t s = home(table, key);
  const std::uint32_t limit = probe_limit(table);
  for (std::uint32_t i = 0; i < limit; ++i) {
    const Slot slot = table.slots[s];
    if (slot == kEmptySlot) return;
    if (slot != kTombstone && key_of(slot) == key) {
      table.slots[s] = kTombstone;
      return;
    }
    s = s + 1 == table.capacity ? 0 : s + 1;
  }
}

__device__ std::uint32_t find(const Table& table, std::uint32_t key) {
  if (key == kEmptyKey) {
    const Slot e = *table.empty_key_entry;
    return e == 0 ? kNotFound : value_of(e);
  }
  std::uint32_t s = home(table, key);
  const std::uint32_t limit = probe_limit(table);
  for (std::uint32_t i = 0; i < limit; ++i) {
    const Slot slot = table.slots[s];
    if (slot == kEmptySlot) return kNotFound;
    if (slot != kTombstone && key_of(slot) == key) return value_of(slot);
    s = s + 1 == table.capacity ? 0 : s + 1;
  }
  return kNotFound;
}

}  // namespace exercise04
