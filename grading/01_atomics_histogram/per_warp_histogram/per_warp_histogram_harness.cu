// The harness of exercise 1 (lesson 01): launches the student's per_warp_histogram_kernel with
// the exercise's grid, its atomics probed (atomic_probe.cuh) when the tests ask.

// The CUDA headers an answer may include, first: they declare atomicAdd overloads of their own,
// which the probe's atomicAdd macro would break if they came after it.
#include <cooperative_groups.h>
#include <cuda/atomic>

#include "../../probes/atomic_probe.cuh"  // before the student's file: its atomicAdd is probed

#include <per_warp_histogram.cuh>  // the student's file: the starter, the solution or an answer

#include "../../../common/launch.hpp"
#include "per_warp_histogram_harness.hpp"

static_assert(exercise01::kThreads == 256 && exercise01::kBins == 256 &&
                  exercise01::kWarpsPerBlock == grading01::kWarpsPerBlock,
              "the exercise's constants are part of its statement: keep them");

namespace grading01 {
namespace {

int blocks() {
  return 2 * course::sm_count();
}

void launch(const std::uint8_t* d_data, std::size_t n, unsigned long long* d_bins) {
  CUDA_CHECK(cudaMemset(d_bins, 0, exercise01::kBins * sizeof(unsigned long long)));
  exercise01::per_warp_histogram_kernel<<<blocks(), exercise01::kThreads>>>(d_data, n, d_bins);
}

}  // namespace

int per_warp_histogram_blocks() {
  return blocks();
}

void per_warp_histogram(const std::uint8_t* d_data, std::size_t n, unsigned long long* d_bins) {
  grading::watched([&] { launch(d_data, n, d_bins); });
}

grading::AtomicReport per_warp_histogram_probed(const std::uint8_t* d_data, std::size_t n,
                                                unsigned long long* d_bins) {
  return grading::probe_atomics(blocks(), exercise01::kThreads, grading::SeeWords::warps_too,
                                [&] { launch(d_data, n, d_bins); });
}

}  // namespace grading01
