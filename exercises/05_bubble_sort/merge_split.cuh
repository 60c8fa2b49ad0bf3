// Exercise 2 (lesson 05): the source's exercise 2 with merges. The source (v2, v3) re-sorts whole
// segments by odd-even transposition at every round, about as many steps as a segment has places,
// though each half of a segment is already sorted. Here the data are cut into sorted runs of kRun
// floats, and a round merges neighbouring runs: the lower run keeps the kRun smallest floats of
// the two, the upper the kRun largest. Runs do what single values do in v0: odd-even transposition,
// with a merge-split as the compare-and-swap, sorts them in as many rounds as there are runs.
// Write the merge-split; the harness sorts every run first, then launches the rounds.
#pragma once

#include <cstddef>

#include "merge_split_support.cuh"  // before, last_float (grading/)

namespace exercise05 {

constexpr int kMergeThreads = 256;
constexpr std::size_t kRun = 2 * kMergeThreads;

// Block b merges the two sorted runs that start at lo = first + 2 b kRun: the lower one,
// data[lo, lo + kRun), and the upper one, data[lo + kRun, lo + 2 kRun). Places at n or past it
// count as last_float() and are never written. Afterwards the lower run holds the kRun smallest
// of the 2 kRun floats and the upper one the kRun largest, both sorted. blockDim.x ==
// kMergeThreads. Compare floats only with before().
__global__ void merge_split_kernel(float* data, std::size_t n, std::size_t first) {
  // TODO: a merge by ranks, O(kRun log kRun) comparisons, not a sort:
  //   1. load both runs into a __shared__ array of 2 kRun floats (last_float() past n); a barrier;
  //   2. a float's place in the merged 2 kRun is its place in its own run plus the number of
  //      floats of the other run that go before it, which a binary search with before() counts.
  //      Ties: a float of the lower run goes before an equal one of the upper run, so no two
  //      floats get the same place. Write each float to its place in a second __shared__ array;
  //   3. a barrier, then store the merged floats back (only the places below n).
  (void)data;
  (void)n;
  (void)first;
}

}  // namespace exercise05
