// What the tests of exercise 1 (lesson 01) call: the student's per-warp histogram, run by its
// harness (per_warp_histogram_harness.cu).
#pragma once

#include <cstddef>
#include <cstdint>

#include "../../probes/atomic_counts.hpp"

namespace grading01 {

constexpr int kWarpsPerBlock = 8;  // 256 threads per block

// The blocks the harness launches (two per SM), so that the tests can size inputs by what one warp
// and one block count.
int per_warp_histogram_blocks();

// Counts the n bytes at d_data into d_bins[0..255] (device memory) with the student's kernel.
void per_warp_histogram(const std::uint8_t* d_data, std::size_t n, unsigned long long* d_bins);

// The same, with the student's atomics probed.
grading::AtomicReport per_warp_histogram_probed(const std::uint8_t* d_data, std::size_t n,
                                                unsigned long long* d_bins);

}  // namespace grading01
