// The harness of exercise 3 (lesson 01): runs the student's warp_aggregated_increment in a probe
// kernel that records every add it makes, and in the shared-memory histogram.
#include "../../grading/harness.hpp"

#include <warp_aggregated.cuh>  // the student's file

#include "../../../common/launch.hpp"
#include "warp_aggregated_harness.hpp"

namespace grading01 {
namespace {

constexpr int kHistogramBins = 256;
constexpr int kHistogramThreads = 256;

__global__ void record_adds_kernel(const unsigned int* bins, const unsigned int* active,
                                   unsigned int* totals, unsigned int* calls) {
  const int pattern = blockIdx.x;
  const int lane = threadIdx.x;
  if ((active[pattern] >> lane) & 1u) {
    exercise01::warp_aggregated_increment(bins[pattern * course::kWarpSize + lane],
                                          [&](unsigned int bin, unsigned int count) {
                                            atomicAdd(&totals[pattern * kProbeBins + bin], count);
                                            atomicAdd(&calls[pattern * kProbeBins + bin], 1u);
                                          });
  }
}

__global__ void histogram_kernel(const std::uint8_t* data, std::size_t n,
                                 unsigned long long* bins) {
  __shared__ unsigned int counts[kHistogramBins];
  counts[threadIdx.x] = 0;
  __syncthreads();
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    exercise01::warp_aggregated_increment(
        data[i], [&](unsigned int bin, unsigned int count) { atomicAdd(&counts[bin], count); });
  }
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(counts[threadIdx.x]));
}

}  // namespace

void record_adds(const unsigned int* d_bins, const unsigned int* d_active, int patterns,
                 unsigned int* d_totals, unsigned int* d_calls) {
  CUDA_CHECK(cudaMemset(d_totals, 0, patterns * kProbeBins * sizeof(unsigned int)));
  CUDA_CHECK(cudaMemset(d_calls, 0, patterns * kProbeBins * sizeof(unsigned int)));
  grading::watched([&] {
    record_adds_kernel<<<patterns, course::kWarpSize>>>(d_bins, d_active, d_totals, d_calls);
  });
}

void warp_aggregated_histogram(const std::uint8_t* d_data, std::size_t n,
                               unsigned long long* d_bins) {
  CUDA_CHECK(cudaMemset(d_bins, 0, kHistogramBins * sizeof(unsigned long long)));
  grading::watched(
      [&] { histogram_kernel<<<2 * course::sm_count(), kHistogramThreads>>>(d_data, n, d_bins); });
}

}  // namespace grading01
