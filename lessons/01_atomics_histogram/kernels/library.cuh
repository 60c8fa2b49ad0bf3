// The library: CUB's histogram, as a user would call it.
#pragma once

#include <cub/device/device_histogram.cuh>

#include <cstddef>
#include <cstdint>

#include "../reference.hpp"
#include "check.hpp"
#include "device_memory.hpp"

namespace lesson01 {

// CUB's DeviceHistogram::HistogramEven, as a user would call it: 257 levels 0, 1, ..., 256 make
// 256 bins of width 1, and the temporary storage is allocated once, outside the timed calls.
// Counter is unsigned int, CUB's fast path, when no bin can pass 2^32 (n < 2^32), and
// unsigned long long beyond: CUB's 64-bit counters take a slower path, so the choice matters.
template <typename Counter>
class CubHistogram {
 public:
  explicit CubHistogram(std::size_t n) : n_(n) {
    std::size_t bytes = 0;
    CUDA_CHECK(call(nullptr, bytes, nullptr, nullptr, nullptr));
    temp_ = course::DeviceBuffer<unsigned char>(bytes);
  }
  void operator()(const std::uint8_t* data, Counter* bins, cudaStream_t stream = nullptr) {
    std::size_t bytes = temp_.size();
    CUDA_CHECK(call(temp_.data(), bytes, data, bins, stream));
  }

 private:
  cudaError_t call(void* temp, std::size_t& bytes, const std::uint8_t* data, Counter* bins,
                   cudaStream_t stream) const {
    return cub::DeviceHistogram::HistogramEven(temp, bytes, data, bins, kBins + 1, 0, kBins,
                                               static_cast<long long>(n_), stream);
  }
  std::size_t n_;
  course::DeviceBuffer<unsigned char> temp_;
};

// Whether 32-bit counters are exact for n bytes: no bin can hold more than n.
inline bool narrow_counters_suffice(std::size_t n) {
  return n <= 0xFFFFFFFFull;
}

}  // namespace lesson01
