// Exercise 3 (lesson 04): erasing from open addressing. v4 can insert and find but never remove; a
// removed key cannot simply leave an empty slot behind, because a search stops at the first empty
// slot and would miss every key that was placed after it on the same run. The slot becomes a
// tombstone instead, which searches pass over. Write erase and find; the harness builds the table
// with v4's insert, erases keys with your erase, then looks keys up with your find.
#pragma once

#include <cstdint>

#include "erase_support.cuh"  // Slot, kEmptySlot, kTombstone, kEmptyKey, kNotFound, Table, home

namespace exercise04 {

// Erases `key` from the table, if it is there: its slot becomes kTombstone, or, for the key
// kEmptyKey, *table.empty_key_entry becomes 0. Many threads erase at once, each a different key.
__device__ void erase(const Table& table, std::uint32_t key) {
  // TODO: kEmptyKey first (its entry beside the slots). Otherwise follow the key's probe from
  //   home(table, key): one slot at a time, wrapping at the end. A slot that holds the key
  //   (key_of(slot) == key) becomes kTombstone; an empty slot means the key is not there; and a
  //   table with no empty slot has none, so stop after table.capacity probes.
  (void)table;
  (void)key;
}

// The value of `key`, or kNotFound. The table does not change while find runs; it may hold
// tombstones, and it may have no empty slot at all.
__device__ std::uint32_t find(const Table& table, std::uint32_t key) {
  // TODO: the same probe as erase: a slot that holds the key gives its value (value_of); a
  //   tombstone is passed over; an empty slot, or table.capacity probes, mean kNotFound.
  (void)table;
  (void)key;
  return kNotFound;
}

}  // namespace exercise04
