// The harness of exercise 3 (lesson 01): runs the student's warp_aggregated_increment in a probe
// kernel that logs every add it makes, in the shared-memory histogram and in a timed kernel, both
// of which count its adds.
#include "../../probes/harness.hpp"

#include <warp_aggregated.cuh>  // the student's file

#include "../../../common/launch.hpp"
#include "warp_aggregated_harness.hpp"

namespace grading01 {
namespace {

constexpr int kHistogramBins = 256;
constexpr int kHistogramThreads = 256;

}  // namespace

// The kernels, in a namespace with a name, which the compiled-code check's messages show.
namespace kernels {

__global__ void record_adds_kernel(const unsigned int* bins, const unsigned int* active,
                                   int patterns, AddRecord* log, unsigned int* adds) {
  const int warps_per_block = (blockDim.x + 31) / 32;
  const int pattern = blockIdx.x * warps_per_block + threadIdx.x / 32;
  const unsigned int lane = threadIdx.x % 32;
  if (pattern < patterns && ((active[pattern] >> lane) & 1u)) {
    exercise01::warp_aggregated_increment(
        bins[pattern * course::kWarpSize + lane], [&](unsigned int bin, unsigned int count) {
          const unsigned int k = atomicAdd(&adds[pattern], 1u);
          if (k < kMostAddsLogged) log[pattern * kMostAddsLogged + k] = {bin, count, lane};
        });
  }
}

__global__ void histogram_kernel(const std::uint8_t* data, std::size_t n, unsigned long long* bins,
                                 unsigned long long* adds) {
  __shared__ unsigned int counts[kHistogramBins];
  __shared__ unsigned int block_adds;
  counts[threadIdx.x] = 0;
  if (threadIdx.x == 0) block_adds = 0;
  __syncthreads();
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    exercise01::warp_aggregated_increment(data[i], [&](unsigned int bin, unsigned int count) {
      atomicAdd(&counts[bin], count);
      atomicAdd(&block_adds, 1u);  // the adds the function made, counted
    });
  }
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(counts[threadIdx.x]));
  if (threadIdx.x == 0) atomicAdd(adds, static_cast<unsigned long long>(block_adds));
}

__global__ void rounds_kernel(unsigned int key, int rounds, unsigned long long* bins,
                              unsigned long long* adds) {
  __shared__ unsigned int counts[kHistogramBins];
  __shared__ unsigned int block_adds;
  for (int b = threadIdx.x; b < kHistogramBins; b += blockDim.x)
    counts[b] = 0;
  if (threadIdx.x == 0) block_adds = 0;
  __syncthreads();
  const unsigned int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const unsigned int lane = threadIdx.x % 32;
  for (int r = 0; r < rounds; ++r) {
    const TimingRound round = timing_round(key, warp, r);
    exercise01::warp_aggregated_increment(lane < round.cut ? round.below : round.rest,
                                          [&](unsigned int bin, unsigned int count) {
                                            atomicAdd(&counts[bin], count);
                                            atomicAdd(&block_adds, 1u);
                                          });
  }
  __syncthreads();
  for (int b = threadIdx.x; b < kHistogramBins; b += blockDim.x) {
    if (counts[b] != 0) atomicAdd(&bins[b], static_cast<unsigned long long>(counts[b]));
  }
  if (threadIdx.x == 0) atomicAdd(adds, static_cast<unsigned long long>(block_adds));
}

}  // namespace kernels

namespace {

int timing_blocks() {
  return 2 * course::sm_count();
}

}  // namespace

unsigned existing_lanes(int pattern, int threads) {
  const int warps_per_block = (threads + 31) / 32;
  const int lanes = threads - 32 * (pattern % warps_per_block);
  return lanes >= 32 ? 0xFFFFFFFFu : (1u << lanes) - 1;
}

void record_adds(const unsigned int* d_bins, const unsigned int* d_active, int patterns,
                 int threads, AddRecord* d_log, unsigned int* d_adds) {
  const int warps_per_block = (threads + 31) / 32;
  const int blocks = (patterns + warps_per_block - 1) / warps_per_block;
  CUDA_CHECK(cudaMemset(d_log, 0xFF, patterns * kMostAddsLogged * sizeof(AddRecord)));
  CUDA_CHECK(cudaMemset(d_adds, 0, patterns * sizeof(unsigned int)));
  grading::watched([&] {
    kernels::record_adds_kernel<<<blocks, threads>>>(d_bins, d_active, patterns, d_log, d_adds);
  });
}

unsigned long long warp_aggregated_histogram(const std::uint8_t* d_data, std::size_t n,
                                             unsigned long long* d_bins) {
  course::DeviceBuffer<unsigned long long> adds(1);
  adds.fill_bytes(0);
  CUDA_CHECK(cudaMemset(d_bins, 0, kHistogramBins * sizeof(unsigned long long)));
  grading::watched([&] {
    kernels::histogram_kernel<<<2 * course::sm_count(), kHistogramThreads>>>(d_data, n, d_bins,
                                                                             adds.data());
  });
  return adds.download()[0];
}

int timing_warps() {
  return timing_blocks() * kTimingThreads / 32;
}

unsigned long long warp_aggregated_rounds(unsigned int key, unsigned long long* d_bins) {
  course::DeviceBuffer<unsigned long long> adds(1);
  adds.fill_bytes(0);
  CUDA_CHECK(cudaMemset(d_bins, 0, kHistogramBins * sizeof(unsigned long long)));
  grading::watched([&] {
    kernels::rounds_kernel<<<timing_blocks(), kTimingThreads>>>(key, kTimingRounds, d_bins,
                                                                adds.data());
  });
  return adds.download()[0];
}

}  // namespace grading01
