// What a user would call instead of lesson 05's kernels: CUB's radix sort, CUB's merge sort (the
// library's comparison sort, the kind of sort lesson 05's are), and Thrust's sort.
#pragma once

#include <thrust/execution_policy.h>
#include <thrust/sort.h>
#include <algorithm>
#include <climits>
#include <cstddef>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include "bits.hpp"
#include "check.hpp"
#include "device_memory.hpp"

namespace lesson05 {

// The libraries take n below 2^31 here (CUB's item count was an int before CCCL 2.7).
constexpr std::size_t kLibraryMaxN = INT_MAX;

// cub::DeviceRadixSort::SortKeys, out of place, with its scratch allocated once: the fastest a
// user can sort floats. CUB reads -0.0 and +0.0 as one key and keeps them in input order.
class CubSort {
 public:
  explicit CubSort(std::size_t n) : n_(n) {
    std::size_t bytes = 0;
    CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, static_cast<const float*>(nullptr),
                                              static_cast<float*>(nullptr), static_cast<int>(n)));
    temp_ = course::DeviceBuffer<unsigned char>(std::max<std::size_t>(bytes, 1));
  }
  void operator()(const float* in, float* out, cudaStream_t stream = nullptr) {
    std::size_t bytes = temp_.size();
    CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp_.data(), bytes, in, out, static_cast<int>(n_), 0,
                                              32, stream));
  }

 private:
  std::size_t n_;
  course::DeviceBuffer<unsigned char> temp_;
};

// IEEE 754 totalOrder, the order lesson 05's versions sort in (-0.0 before +0.0, NaNs at the
// ends by sign): a comparison of order keys.
struct TotalOrderLess {
  __device__ bool operator()(float a, float b) const {
    return course::order_key(a) < course::order_key(b);
  }
};

// cub::DeviceMergeSort::SortKeysCopy, out of place, with its scratch allocated once: CUB's
// comparison sort, given the course's comparison, so it is checked as strictly as the versions.
class CubMergeSort {
 public:
  explicit CubMergeSort(std::size_t n) : n_(n) {
    std::size_t bytes = 0;
    CUDA_CHECK(cub::DeviceMergeSort::SortKeysCopy(
        nullptr, bytes, static_cast<const float*>(nullptr), static_cast<float*>(nullptr),
        static_cast<int>(n), TotalOrderLess{}));
    temp_ = course::DeviceBuffer<unsigned char>(std::max<std::size_t>(bytes, 1));
  }
  void operator()(const float* in, float* out, cudaStream_t stream = nullptr) {
    std::size_t bytes = temp_.size();
    CUDA_CHECK(cub::DeviceMergeSort::SortKeysCopy(temp_.data(), bytes, in, out,
                                                  static_cast<int>(n_), TotalOrderLess{}, stream));
  }

 private:
  std::size_t n_;
  course::DeviceBuffer<unsigned char> temp_;
};

// thrust::sort, in place, as a user calls it (it allocates its scratch on every call).
inline void thrust_sort(float* data, std::size_t n, cudaStream_t stream = nullptr) {
  thrust::sort(thrust::cuda::par.on(stream), data, data + n);
}

}  // namespace lesson05
