// A wrong answer to exercise 4 (lesson 06): a library call. CUB's stable partition does the whole
// sift, but the exercise is to write it; the answer check refuses it.
// expect: rejected: uses cub::
#pragma once

#include <cstddef>
#include <cstdint>

#include <cub/device/device_select.cuh>

#include "keys_support.cuh"

namespace exercise06 {

constexpr int kSiftThreads = 256;
constexpr std::size_t kTile = 4 * kSiftThreads;

struct SiftCounts {
  unsigned winners;
  unsigned candidates;
};

__global__ void count_tiles(const Key*, std::size_t, Key, Key, SiftCounts*) {}
__global__ void scatter_tiles(const Key*, std::size_t, Key, Key, const SiftCounts*, std::uint32_t*,
                              std::uint32_t*) {}

template <typename Selector>
void sift_with_cub(void* scratch, std::size_t bytes, const std::uint32_t* indices,
                   std::uint32_t* out, int* selected, int n, Selector above) {
  cub::DeviceSelect::If(scratch, bytes, indices, out, selected, n, above);
}

}  // namespace exercise06
