// Exercise 1 (lesson 01): a private histogram per block in shared memory, the seed's second
// program. Write the kernel; the host function that launches it is given.
#pragma once

#include <cstddef>
#include <cstdint>

#include "check.hpp"
#include "launch.hpp"

namespace exercise01 {

constexpr int kBins = 256;
constexpr int kThreads = 256;  // one thread per bin: thread t zeroes and merges bin t

// Counts the n bytes at data into bins[0..255]. Launched with kThreads threads per block;
// bins is zeroed before the launch.
__global__ void shared_histogram_kernel(const std::uint8_t* data, std::size_t n,
                                        unsigned long long* bins) {
  // TODO: write the block's private histogram:
  //   1. a __shared__ array of kBins unsigned int counters; thread t sets counter t to zero;
  //   2. a barrier, so that no thread counts into a counter that is not zeroed yet;
  //   3. a grid-stride loop over data[0, n) (size_t indices: n may pass 2^32) that adds 1 to
  //      the byte's counter with a shared-memory atomicAdd;
  //   4. a barrier, so that every count of the block is in before it is merged;
  //   5. thread t adds counter t to bins[t] with one global atomicAdd.
  (void)data;
  (void)n;
  (void)bins;
}

// Counts the n bytes at d_data (device memory) into d_bins[0..255] (device memory).
inline void histogram_shared(const std::uint8_t* d_data, std::size_t n,
                             unsigned long long* d_bins) {
  CUDA_CHECK(cudaMemset(d_bins, 0, kBins * sizeof(unsigned long long)));
  shared_histogram_kernel<<<2 * course::sm_count(), kThreads>>>(d_data, n, d_bins);
  CUDA_CHECK_LAUNCH();
}

}  // namespace exercise01
