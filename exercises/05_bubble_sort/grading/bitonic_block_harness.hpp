// What the tests of exercise 4 (lesson 05) call: the student's bitonic_sort_shared, run by its
// harness (bitonic_block_harness.cu) in one block.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace grading05 {

constexpr std::size_t kBitonicBlockMax = 8192;

// Sorts the n floats at d_in (1 <= n <= 8192) into d_out (device memory) with one block: the
// floats go to shared memory, padded with the last float up to a power of two, the student's
// network sorts them, and the first n go back.
void bitonic_block_sort(const float* d_in, float* d_out, std::size_t n);

// Runs the network on `size` floats (a power of two) and returns every compare-and-swap it made,
// as the two places it was given, in the order given: (smaller's place, larger's place).
std::vector<std::pair<unsigned, unsigned>> bitonic_block_network(unsigned size);

}  // namespace grading05
