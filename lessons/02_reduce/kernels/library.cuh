// The library: cub::DeviceReduce::Sum, as a user would call it.
#pragma once

#include <cub/device/device_reduce.cuh>

#include <cstddef>

#include "check.hpp"
#include "device_memory.hpp"

namespace lesson02 {

// cub::DeviceReduce::Sum as a user would call it, its temporary storage allocated once.
template <typename T>
class CubSum {
 public:
  explicit CubSum(std::size_t n) : n_(n) {
    std::size_t bytes = 0;
    CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const T*>(nullptr),
                                      static_cast<T*>(nullptr), static_cast<long long>(n_)));
    temp_ = course::DeviceBuffer<unsigned char>(bytes);
  }
  void operator()(const T* in, T* result, cudaStream_t stream = nullptr) {
    std::size_t bytes = temp_.size();
    CUDA_CHECK(cub::DeviceReduce::Sum(temp_.data(), bytes, in, result, static_cast<long long>(n_),
                                      stream));
  }

 private:
  std::size_t n_;
  course::DeviceBuffer<unsigned char> temp_;
};

}  // namespace lesson02
