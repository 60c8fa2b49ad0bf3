// What the tests of exercise 3 (lesson 04) call: the student's erase and find, run by their harness
// (erase_harness.cu) on a table that v4's insert built.
#pragma once

#include <cstddef>
#include <cstdint>

#include "layout.hpp"  // lesson04::Slot, Hash

namespace grading04 {

// An open-addressing table in device memory (lesson04::OpenTable's view, without its kernels).
struct TableView {
  lesson04::Slot* slots;
  std::uint32_t capacity;
  lesson04::Slot* empty_key_entry;
  lesson04::Hash hash;
};

// Both refuse a table of more than 2^31 slots with std::invalid_argument: the exercise's tables
// have at most that many (its statement says so).
//
// Erases the n keys at d_keys (device memory, distinct) with the student's erase.
void erase_keys(const TableView& table, const std::uint32_t* d_keys, std::size_t n);

// Writes the student's find of each of the n queries to d_out (device memory).
void find_keys(const TableView& table, const std::uint32_t* d_queries, std::size_t n,
               std::uint32_t* d_out);

}  // namespace grading04
