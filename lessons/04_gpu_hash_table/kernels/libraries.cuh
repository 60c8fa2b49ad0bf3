// The library: a sorted array instead of a hash table.
//
// What a CUDA user without a hash table would write: sort the (key, index) pairs with CUB's radix
// sort, and answer a query by binary search with Thrust. The sort is stable, so the last of a
// key's repeats is its last occurrence: upper_bound minus one finds it, which is insert-or-assign.
#pragma once

#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/transform.h>
#include <cub/device/device_radix_sort.cuh>

#include <cstddef>
#include <cstdint>

#include "../reference.hpp"
#include "check.hpp"
#include "device_memory.hpp"
#include "settings.cuh"

namespace lesson04 {

struct LastMatch {
  const std::uint32_t* keys;
  const std::uint32_t* values;
  __host__ __device__ std::uint32_t operator()(std::uint32_t end, std::uint32_t query) const {
    return end > 0 && keys[end - 1] == query ? values[end - 1] : kNotFound;
  }
};

class SortedTable {
 public:
  explicit SortedTable(std::size_t capacity) : keys_(capacity), values_(capacity), ends_(capacity) {
    std::size_t bytes = 0;
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
        nullptr, bytes, static_cast<const std::uint32_t*>(nullptr), keys_.data(),
        static_cast<const std::uint32_t*>(nullptr), values_.data(), capacity));
    temp_ = course::DeviceBuffer<unsigned char>(bytes);
  }
  // Sorts (keys[i], values[i]); values is the index sequence 0, 1, ..., n - 1.
  void build(const std::uint32_t* keys, const std::uint32_t* values, std::size_t n,
             cudaStream_t stream = nullptr) {
    require_keys(n, keys_.size());
    std::size_t bytes = temp_.size();
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp_.data(), bytes, keys, keys_.data(), values,
                                               values_.data(), n, 0, 32, stream));
    size_ = n;
  }
  void find(const std::uint32_t* queries, std::size_t m, std::uint32_t* out,
            cudaStream_t stream = nullptr) {
    require_keys(m, ends_.size());
    const auto policy = thrust::cuda::par.on(stream);
    thrust::upper_bound(policy, keys_.data(), keys_.data() + size_, queries, queries + m,
                        ends_.data());
    thrust::transform(policy, ends_.data(), ends_.data() + m, queries, out,
                      LastMatch{keys_.data(), values_.data()});
  }

 private:
  course::DeviceBuffer<std::uint32_t> keys_;
  course::DeviceBuffer<std::uint32_t> values_;
  course::DeviceBuffer<std::uint32_t> ends_;
  course::DeviceBuffer<unsigned char> temp_;
  std::size_t size_ = 0;
};

}  // namespace lesson04
