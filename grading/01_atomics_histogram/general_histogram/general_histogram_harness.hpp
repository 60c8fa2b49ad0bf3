// What the tests of exercise 2 (lesson 01) call: the student's general histogram, run by its
// harness (general_histogram_harness.cu).
#pragma once

#include <cstddef>
#include <cstdint>

#include "../../probes/atomic_counts.hpp"

namespace grading01 {

constexpr unsigned kMaxBins = 4096;

// The blocks the harness launches (two per SM), so that the tests can size inputs by what one block
// counts.
int general_histogram_blocks();

// Counts the n values at d_values below num_bins (1 to 4096) into d_bins[0..num_bins-1] (device
// memory) with the student's kernel, threads_per_block (1 to 1024) threads per block.
void general_histogram(const std::uint16_t* d_values, std::size_t n, unsigned num_bins,
                       int threads_per_block, unsigned long long* d_bins);

// The same, with the student's atomics probed.
grading::AtomicReport general_histogram_probed(const std::uint16_t* d_values, std::size_t n,
                                               unsigned num_bins, int threads_per_block,
                                               unsigned long long* d_bins);

}  // namespace grading01
