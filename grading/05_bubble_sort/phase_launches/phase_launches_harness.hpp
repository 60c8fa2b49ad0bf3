// What the tests of exercise 1 (lesson 05) call: the student's phase kernel and phase count, run
// by their harness (phase_launches_harness.cu).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace grading05 {

// Sorts the n floats at d_in into d_out (device memory): copies them, then launches the student's
// phase kernel for phases 0 to phases_for(n) - 1. Returns how many phases it launched.
std::size_t phase_sort(const float* d_in, float* d_out, std::size_t n);

// The same, with the compare-and-swaps counted: pair_calls[i] is how many times the places i and
// i + 1 of the output were compared, strays how many calls compared any other two places,
// off_phase how many compared a pair of the other parity than their launch's phase, and
// other_thread how many were made by a thread other than the pair's own (thread p of a launch takes
// the pair at 2p + phase % 2).
struct PhaseCount {
  std::size_t phases = 0;
  std::vector<unsigned> pair_calls;
  std::vector<unsigned> pair_swaps;  // of those calls, the ones that swapped the pair
  unsigned strays = 0;
  unsigned off_phase = 0;
  unsigned other_thread = 0;
};
PhaseCount phase_sort_probed(const float* d_in, float* d_out, std::size_t n);

// The student's phases_for(n).
std::size_t phases_for(std::size_t n);

// The sort of the n floats at `in` (host memory), launch by launch, set against odd-even
// transposition made on the CPU phase by phase: after each launch of the phases in `at` (sorted;
// empty: every launch) the data are copied back and compared, bit for bit. Returns "" when every
// launch compared left exactly its phase's result; otherwise the first that did not, and the
// first place it left wrong.
std::string phases_step_by_step(const std::vector<float>& in,
                                const std::vector<std::size_t>& at = {});

}  // namespace grading05
