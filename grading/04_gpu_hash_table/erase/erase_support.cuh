// What exercise 3 (lesson 04) gives the student's file: the layout of v4's open-addressing table
// (lessons/04_gpu_hash_table/layout.hpp), where a key starts, and the tombstone.
#pragma once

#include <cstdint>

#include "layout.hpp"

namespace exercise04 {

using lesson04::kEmptyKey;   // the one key that never lives in a slot
using lesson04::kEmptySlot;  // an empty slot: all ones
using lesson04::key_of;
using lesson04::kNotFound;
using lesson04::pack;
using lesson04::Slot;  // a key in the high 32 bits, its value in the low 32
using lesson04::value_of;

// What an erased key's slot becomes. It must not read as empty, or a search would stop there and
// miss the keys stored after it; and it holds no key: pack(kEmptyKey, 0), which no key's slot can
// be, since kEmptyKey never lives in a slot.
constexpr Slot kTombstone = pack(kEmptyKey, 0);

// v4's table as this exercise sees it: linear probing from a key's home slot, one slot at a time,
// wrapping at the end.
struct Table {
  Slot* slots;
  std::uint32_t capacity;
  Slot* empty_key_entry;  // the key kEmptyKey's entry, kept beside the slots: 0, or pack(1, value)
  lesson04::Hash hash;
};

// The slot where a key's probe starts.
__device__ inline std::uint32_t home(const Table& table, std::uint32_t key) {
  return lesson04::home_slot(table.hash, key, table.capacity);
}

}  // namespace exercise04
