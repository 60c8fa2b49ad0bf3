// An adversarial answer to exercise 3 (lesson 04), fourth round. What it fakes: a find that only
// reads ("the compiled code of ... find must write none"; "the table does not change while find
// runs"). This find changes the table: when its probe meets a tombstone whose next slot is empty,
// no key's probe needs that tombstone any more, so it empties it and stops there (the idea of
// find_empties_tombstones). That answer is caught by the compiled-code rule "find_kernel: no 64-bit
// store". Here the store is 32 bits wide: a tombstone, pack(kEmptyKey, 0), and an empty slot, all
// ones, differ only in their low half (the value), so one st.u32 of 0xFFFFFFFF into the slot's low
// word turns the one into the other. The rule names st.b64 and st.u64 only.
//
// Why each test passes:
// - the slots are compared with what they should be (one tombstone per erased key, no slot made
//   empty, every other slot as it was) right after the erases, before any find runs; erase here is
//   the ordinary one (tombstone into the key's slot; an absent key's probe ends at an empty slot or
//   after table.capacity probes and changes nothing).
// - the finds stay right while they tidy, even many at once: a tombstone at s with slot s + 1 empty
//   lies on no live key's probe (a key placed past s + 1 with its home at or before s would have
//   had to pass the empty s + 1), so emptying it loses no key, and a find that then stops at it
//   would have stopped at s + 1; emptiness only spreads backwards from an empty slot, one tombstone
//   at a time, and nothing else writes during the finds. Present keys get their values, erased and
//   absent keys kNotFound; a table with no empty slot is never tidied, and its probes stop after
//   table.capacity of them.
// - timing: erase as the model's; the finds read as the model's, and write a few words.
// Compiled code: erase_kernel has its 64-bit tombstone store; find_kernel has one 32-bit store and
// no atomic; nothing counts or locks.
// A correct grader would check the slots again after the finds (or forbid every store in find):
// Caught: the tests now compare the slots after the finds with what the erases left.
// expect: fails: slots changed by the finds
#pragma once

#include <cstdint>

#include "erase_support.cuh"

namespace exercise04 {

// The place of `key` (not kEmptyKey) in the table, or table.capacity when it is not there.
__device__ inline std::uint32_t place_of(const Table& table, std::uint32_t key) {
  std::uint32_t s = home(table, key);
  for (std::uint32_t probes = 0; probes < table.capacity; ++probes) {
    const Slot slot = table.slots[s];
    if (slot == kEmptySlot) return table.capacity;
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
  const std::uint32_t s = place_of(table, key);
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
    if (slot == kEmptySlot) break;
    if (key_of(slot) == key) return value_of(slot);
    const std::uint32_t after = s + 1 == table.capacity ? 0 : s + 1;
    if (slot == kTombstone && table.slots[after] == kEmptySlot) {
      // The low word of the slot (its value, 0 in a tombstone) to all ones: the slot is empty.
      reinterpret_cast<std::uint32_t*>(&table.slots[s])[0] = 0xFFFFFFFFu;
      break;
    }
    s = after;
  }
  return kNotFound;
}

}  // namespace exercise04
