// What the tests of exercise 2 (lesson 05) call: the student's merge_split_kernel, run by its
// harness (merge_split_harness.cu) in the rounds of odd-even transposition on runs.
#pragma once

#include <cstddef>
#include <cstdint>

namespace grading05 {

constexpr std::size_t kRun = 512;

// Sorts the n floats at d_data (device memory), whose runs of kRun floats are each sorted
// already (the last may be shorter): as many rounds as there are runs, round r launching the
// student's kernel on the pairs of runs that start at run r % 2.
void merge_rounds(float* d_data, std::size_t n);

// The same, with the comparisons counted, each by the thread that made it: the merge-splits the
// rounds launched, and the most comparisons any one thread number (0 to 255) made, summed over the
// blocks.
struct MergeCount {
  unsigned long long comparisons = 0;
  unsigned long long merges = 0;
  unsigned long long busiest_thread = 0;
};
MergeCount merge_rounds_probed(float* d_data, std::size_t n);

// Sets the order that before() and last_float() give the student's kernel from here on: 0 for the
// course's (totalOrder), any other key for a scrambled one (merge_split_order.hpp).
void set_order(std::uint64_t key);

// One launch of the student's kernel on the n floats at d_data (runs each sorted, the last one
// perhaps short, every float of run r marked with r's parity as the parity of its bits under
// run_mask), merging the pairs of runs that start at run `first_run` (0 or 1): how many
// comparisons it made, and how many of them set two floats with the same mark, two floats of one
// run, against each other.
struct RunComparisons {
  unsigned long long comparisons = 0;
  unsigned long long same_run = 0;
};
RunComparisons merge_once_probed(float* d_data, std::size_t n, std::size_t first_run,
                                 std::uint32_t run_mask);

}  // namespace grading05
