// What the tests of exercise 2 (lesson 05) call: the student's merge_split_kernel, run by its
// harness (merge_split_harness.cu) in the rounds of odd-even transposition on runs.
#pragma once

#include <cstddef>

namespace grading05 {

constexpr std::size_t kRun = 512;

// Sorts the n floats at d_data (device memory), whose runs of kRun floats are each sorted
// already (the last may be shorter): as many rounds as there are runs, round r launching the
// student's kernel on the pairs of runs that start at run r % 2.
void merge_rounds(float* d_data, std::size_t n);

// The same, with the comparisons counted, and the merge-splits the rounds launched.
struct MergeCount {
  unsigned long long comparisons = 0;
  unsigned long long merges = 0;
};
MergeCount merge_rounds_probed(float* d_data, std::size_t n);

}  // namespace grading05
