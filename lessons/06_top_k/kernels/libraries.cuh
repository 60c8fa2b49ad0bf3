// What a user would call instead of lesson 06's kernels: cub::DeviceTopK where the CCCL has it
// (3.3 and later), and what a user without a top-k writes: a full sort of (value, index) pairs,
// descending, by CUB or by Thrust, then the first k.
#pragma once

#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <climits>
#include <cstddef>
#include <cub/device/device_radix_sort.cuh>
#include <cub/version.cuh>
#if __has_include(<cub/device/device_topk.cuh>)
#include <cuda/execution.determinism.h>
#include <cuda/execution.output_ordering.h>
#include <cuda/execution.require.h>
#include <cub/device/device_topk.cuh>
#define LESSON06_HAVE_DEVICE_TOPK 1
#endif
#include <string>

#include "check.hpp"
#include "device_memory.hpp"
#include "format.hpp"

namespace lesson06 {

// The libraries take n below 2^31 here (CUB's item count is an int).
constexpr std::size_t kLibraryMaxN = INT_MAX;

// cub::DeviceRadixSort::SortPairsDescending of every (value, index) pair, then the first k: what a
// user without a top-k would write. The indices 0..n-1 are made once, and the scratch kept.
template <typename T>
class CubTopK {
 public:
  explicit CubTopK(std::size_t n) : n_(n), sorted_(n), iota_(n), sorted_indices_(n) {
    thrust::sequence(thrust::device, iota_.data(), iota_.data() + n);
    std::size_t bytes = 0;
    CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(
        nullptr, bytes, static_cast<const T*>(nullptr), sorted_.data(), iota_.data(),
        sorted_indices_.data(), static_cast<int>(n)));
    temp_ = course::DeviceBuffer<unsigned char>(bytes > 0 ? bytes : 1);
  }
  void operator()(const T* in, std::size_t k, T* values, std::size_t* indices,
                  cudaStream_t stream = nullptr) {
    std::size_t bytes = temp_.size();
    CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(temp_.data(), bytes, in, sorted_.data(),
                                                         iota_.data(), sorted_indices_.data(),
                                                         static_cast<int>(n_), 0, 32, stream));
    CUDA_CHECK(
        cudaMemcpyAsync(values, sorted_.data(), k * sizeof(T), cudaMemcpyDeviceToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(indices, sorted_indices_.data(), k * sizeof(std::size_t),
                               cudaMemcpyDeviceToDevice, stream));
  }
  const std::size_t* iota() const { return iota_.data(); }

 private:
  std::size_t n_;
  course::DeviceBuffer<T> sorted_;
  course::DeviceBuffer<std::size_t> iota_;
  course::DeviceBuffer<std::size_t> sorted_indices_;
  course::DeviceBuffer<unsigned char> temp_;
};

// cub::DeviceTopK::MaxPairs of (value, index) pairs, scratch kept, indices 0..n-1 made once. CUB
// (CCCL 3.3 to 3.6 at least) supports only an unsorted result whose ties are broken in no fixed
// way, and says so only when asked: the call requires both, so it is checked as a multiset.
// Without it, why_no_device_topk() says how to get it.
inline std::string why_no_device_topk() {
#ifdef LESSON06_HAVE_DEVICE_TOPK
  return "";
#else
  return course::format(
      "cub::DeviceTopK needs CCCL 3.3 or later (this build: %d.%d); pip install cuda-cccl, then "
      "-DCOURSE_CCCL_INCLUDE_DIR=<its cuda/cccl/headers/include>",
      CUB_MAJOR_VERSION, CUB_MINOR_VERSION);
#endif
}

template <typename T>
class CubDeviceTopK {
 public:
  CubDeviceTopK(std::size_t n, std::size_t k) : n_(n), k_(k), iota_(n) {
#ifdef LESSON06_HAVE_DEVICE_TOPK
    thrust::sequence(thrust::device, iota_.data(), iota_.data() + n);
    std::size_t bytes = 0;
    CUDA_CHECK(cub::DeviceTopK::MaxPairs(
        nullptr, bytes, static_cast<const T*>(nullptr), static_cast<T*>(nullptr),
        static_cast<const std::size_t*>(nullptr), static_cast<std::size_t*>(nullptr), n_, k_,
        requirements()));
    temp_ = course::DeviceBuffer<unsigned char>(bytes > 0 ? bytes : 1);
#endif
  }
  void operator()(const T* in, T* values, std::size_t* indices) {
#ifdef LESSON06_HAVE_DEVICE_TOPK
    std::size_t bytes = temp_.size();
    CUDA_CHECK(cub::DeviceTopK::MaxPairs(temp_.data(), bytes, in, values, iota_.data(), indices, n_,
                                         k_, requirements()));
#else
    (void)in;
    (void)values;
    (void)indices;
#endif
  }

 private:
#ifdef LESSON06_HAVE_DEVICE_TOPK
  static auto requirements() {
    return cuda::execution::require(cuda::execution::determinism::not_guaranteed,
                                    cuda::execution::output_ordering::unsorted);
  }
#endif
  std::size_t n_;
  std::size_t k_;
  course::DeviceBuffer<std::size_t> iota_;
  course::DeviceBuffer<unsigned char> temp_;
};

// thrust::sort_by_key with thrust::greater, in place on a copy of the values and of 0..n-1, then
// the first k, as a user calls it (it allocates its scratch on every call).
template <typename T>
void thrust_top_k(T* data, std::size_t* order, std::size_t n, std::size_t k, T* values,
                  std::size_t* indices, cudaStream_t stream = nullptr) {
  thrust::sort_by_key(thrust::cuda::par.on(stream), data, data + n, order, thrust::greater<T>());
  CUDA_CHECK(cudaMemcpyAsync(values, data, k * sizeof(T), cudaMemcpyDeviceToDevice, stream));
  CUDA_CHECK(
      cudaMemcpyAsync(indices, order, k * sizeof(std::size_t), cudaMemcpyDeviceToDevice, stream));
}

}  // namespace lesson06
