// What the tests of exercise 3 (lesson 01) call: the student's warp_aggregated_increment, run by
// its harness (warp_aggregated_harness.cu) in a probe kernel and in a histogram.
#pragma once

#include <cstddef>
#include <cstdint>

namespace grading01 {

constexpr int kProbeBins = 256;

// One warp per pattern w: lane l, if bit l of d_active[w] is set, calls the student's function
// with d_bins[w * 32 + l] (below kProbeBins). Every add(bin, count) it makes adds count to
// d_totals[w * kProbeBins + bin] and 1 to d_calls[w * kProbeBins + bin] (zeroed here).
void record_adds(const unsigned int* d_bins, const unsigned int* d_active, int patterns,
                 unsigned int* d_totals, unsigned int* d_calls);

// The shared-memory histogram of v2 with every increment aggregated by the student's function:
// counts the n bytes at d_data into d_bins[0..255] (device memory).
void warp_aggregated_histogram(const std::uint8_t* d_data, std::size_t n,
                               unsigned long long* d_bins);

}  // namespace grading01
