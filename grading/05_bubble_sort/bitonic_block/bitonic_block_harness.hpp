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

// The same for `blocks` arrays of 8192 floats, one after the other at d_in, each sorted by a block
// of its own into its place at d_out, in one launch: what the [timing] test case times.
void bitonic_blocks_sort(const float* d_in, float* d_out, std::size_t blocks);

// Runs the network on `in` (a power of two of floats, up to 8192) with every compare-and-swap
// logged, as the two places it was given, in the order given: (smaller's place, larger's place);
// the calls in the order they were made. The warps that `salt` picks sleep before each call.
struct NetworkRun {
  std::vector<std::pair<unsigned, unsigned>> calls;
  std::vector<float> out;  // what the network left in the places
};
NetworkRun bitonic_block_network(const std::vector<float>& in, unsigned salt);

// The same in a launch of in.size() / size blocks, block b sorting in[b size, (b + 1) size) (size
// a power of two up to 8192): only block `logged` is logged (and only its warps sleep), and `out`
// is what it left.
NetworkRun bitonic_blocks_network(const std::vector<float>& in, unsigned size, unsigned salt,
                                  std::size_t logged);

}  // namespace grading05
