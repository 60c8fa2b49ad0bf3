// A wrong answer to exercise 1 (lesson 01): a library call. CUB's histogram counts correctly, but
// the exercise is to write the kernel; the answer check refuses it before it is built.
// expect: rejected: uses cub::
#pragma once

#include <cstddef>
#include <cstdint>
#include <cub/device/device_histogram.cuh>

namespace exercise01 {

constexpr int kBins = 256;
constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;

__global__ void per_warp_histogram_kernel(const std::uint8_t* data, std::size_t n,
                                          unsigned long long* bins) {
  (void)data;
  (void)n;
  (void)bins;
}

// Called instead of the kernel by a student who rewrote the launch.
inline void histogram_with_cub(const std::uint8_t* data, std::size_t n, unsigned long long* bins,
                               void* scratch, std::size_t scratch_bytes) {
  cub::DeviceHistogram::HistogramEven(scratch, scratch_bytes, data, bins, kBins + 1, 0, kBins,
                                      static_cast<int>(n));
}

}  // namespace exercise01
