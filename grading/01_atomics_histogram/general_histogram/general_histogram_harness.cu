// The harness of exercise 2 (lesson 01): launches the student's general_histogram_kernel with two
// blocks per SM and num_bins counters of dynamic shared memory, its atomics probed when the tests
// ask.

// The CUDA headers an answer may include, first: they declare atomicAdd overloads of their own,
// which the probe's atomicAdd macro would break if they came after it.
#include <cooperative_groups.h>
#include <cuda/atomic>

#include "../../probes/atomic_probe.cuh"  // before the student's file: its atomicAdd is probed

#include <general_histogram.cuh>  // the student's file

#include <stdexcept>

#include "../../../common/launch.hpp"
#include "general_histogram_harness.hpp"

static_assert(exercise01::kMaxBins == grading01::kMaxBins,
              "the exercise's constants are part of its statement: keep them");

namespace grading01 {
namespace {

int blocks() {
  return 2 * course::sm_count();
}

void launch(const std::uint16_t* d_values, std::size_t n, unsigned num_bins, int threads,
            unsigned long long* d_bins) {
  if (num_bins < 1 || num_bins > kMaxBins || threads < 1 || threads > 1024) {
    throw std::invalid_argument("general_histogram: 1 to 4096 bins, 1 to 1024 threads");
  }
  CUDA_CHECK(cudaMemset(d_bins, 0, num_bins * sizeof(unsigned long long)));
  exercise01::general_histogram_kernel<<<blocks(), threads, num_bins * sizeof(unsigned int)>>>(
      d_values, n, num_bins, d_bins);
}

}  // namespace

int general_histogram_blocks() {
  return blocks();
}

void general_histogram(const std::uint16_t* d_values, std::size_t n, unsigned num_bins,
                       int threads_per_block, unsigned long long* d_bins) {
  grading::watched([&] { launch(d_values, n, num_bins, threads_per_block, d_bins); });
}

grading::AtomicReport general_histogram_probed(const std::uint16_t* d_values, std::size_t n,
                                               unsigned num_bins, int threads_per_block,
                                               unsigned long long* d_bins) {
  return grading::probe_atomics(blocks(), threads_per_block, grading::SeeWords::totals,
                                [&] { launch(d_values, n, num_bins, threads_per_block, d_bins); });
}

}  // namespace grading01
