// v0, the source's: one thread per value, each keeping a sorted list of the k largest distinct keys
// it sees; the block's lists merged in a tree in a static shared array; a second launch of one
// block merges the blocks' lists. The blocks' lists live in managed memory, as the source's do.
#pragma once

#include <climits>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "../reference.hpp"
#include "bits.hpp"
#include "check.hpp"
#include "device_memory.hpp"
#include "format.hpp"
#include "launch.hpp"
#include "settings.cuh"

namespace lesson06 {

// The blocks of v0's first launch: the source's one thread per value, unless launch.blocks says.
inline std::size_t v0_blocks(std::size_t n, const Launch& launch) {
  return launch.blocks > 0 ? static_cast<std::size_t>(launch.blocks)
                           : source_blocks(n, launch.threads);
}

// A static __shared__ array may be at most 48 KiB: the source's wall. v0 and v1 declare the largest
// there can be, and use threads * k keys of it.
constexpr std::size_t kStaticListKeys = course::kDefaultSharedBytes / sizeof(Key);

// The lengths of list a thread can keep in v0 to v2 (a run-time k up to the length; the list is a
// local array, so its length is fixed when the kernel is compiled).
constexpr int kMaxListLength = 2048;

// Calls f(std::integral_constant<int, K>) with the shortest compiled list length K >= k.
template <typename F>
void with_list_length(std::size_t k, F&& f) {
  if (k <= 16) {
    f(std::integral_constant<int, 16>{});
  } else if (k <= 48) {
    f(std::integral_constant<int, 48>{});
  } else if (k <= 128) {
    f(std::integral_constant<int, 128>{});
  } else if (k <= 384) {
    f(std::integral_constant<int, 384>{});
  } else if (k <= static_cast<std::size_t>(kMaxListLength)) {
    f(std::integral_constant<int, kMaxListLength>{});
  } else {
    throw std::invalid_argument("the lists of v0 to v2 hold at most 2048 keys");
  }
}

// v0 the source's: each thread keeps the k largest distinct keys it sees in a sorted list (the
// source's insert_value), every slot starting at the lowest key; at the source's grid a thread sees
// one value. Then the block's threads merge their lists in a tree in shared memory, inserting the
// partner's keys one at a time (O(k^2) a step), and thread 0 writes the block's list. A second
// launch of one block does the same to the blocks' lists (out: k per block).
template <typename T, int K>
__global__ void source_kernel(const T* in, std::size_t n, int k, T* out) {
  __shared__ Key lists[kStaticListKeys];
  Key list[K];
  start_list(list, k, ListStart::lowest);
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    insert_distinct(list, k, course::order_key(in[i]));
  }
  Key* mine = lists + threadIdx.x * k;
  for (int j = 0; j < k; ++j)
    mine[j] = list[j];
  __syncthreads();
  for (unsigned length = blockDim.x / 2; length > 0; length /= 2) {
    if (threadIdx.x < length) {
      const Key* partner = lists + (threadIdx.x + length) * k;
      for (int j = 0; j < k; ++j)
        insert_distinct(list, k, partner[j]);
    }
    __syncthreads();  // (1) every list of this step read before any is written (exercise 3)
    if (threadIdx.x < length) {
      for (int j = 0; j < k; ++j)
        mine[j] = list[j];
    }
    __syncthreads();  // (2) every list written before the next step reads it
  }
  if (threadIdx.x == 0) {
    for (int j = 0; j < k; ++j)
      out[blockIdx.x * static_cast<std::size_t>(k) + j] = course::from_order_key<T>(list[j]);
  }
}

inline bool is_power_of_two(int x) {
  return x > 0 && (x & (x - 1)) == 0;
}

inline std::string threads_limit(const Launch& launch) {
  return is_power_of_two(launch.threads) && launch.threads >= 32 && launch.threads <= 1024
             ? ""
             : "the tree needs a power of two threads, from 32 to 1024";
}

// "" when threads * k keys fit in `bytes` of shared memory, else why not.
inline std::string lists_limit(std::size_t k, const Launch& launch, std::size_t bytes,
                               const char* what) {
  const std::size_t most = bytes / lists_bytes(launch.threads, 1);
  if (k <= most) return "";
  return course::format("k <= %zu at %d threads: %d lists of k keys in %s of %zu KiB", most,
                        launch.threads, launch.threads, what, bytes / 1024);
}

inline std::string source_limit(std::size_t, std::size_t k, const Launch& launch) {
  const std::string threads = threads_limit(launch);
  if (!threads.empty()) return threads;
  return lists_limit(k, launch, course::kDefaultSharedBytes, "a static shared array");
}

// v0's workspace: the blocks' lists, in managed memory as the source's __managed__ arrays are,
// grown when a launch has more blocks or a larger k than it has room for.
template <typename T>
struct SourceLists {
  course::DeviceBuffer<T> lists;

  T* room_for(std::size_t count) {
    if (lists.size() < count) lists = course::DeviceBuffer<T>(count, course::Memory::managed);
    return lists.data();
  }
};

// v0: the source's two launches, the first on v0_blocks (the source's grid unless launch.blocks
// says otherwise).
template <typename T>
void top_k_v0(const T* in, std::size_t n, std::size_t k, T* values, SourceLists<T>& ws,
              const Launch& launch) {
  const std::string why = source_limit(n, k, launch);
  if (!why.empty()) throw std::invalid_argument("v0: " + why);
  const std::size_t blocks = v0_blocks(n, launch);
  if (blocks > static_cast<std::size_t>(INT_MAX)) {
    throw std::invalid_argument("v0: more than 2^31 - 1 blocks");
  }
  T* lists = ws.room_for(blocks * k);
  with_list_length(k, [&](auto length) {
    constexpr int K = decltype(length)::value;
    source_kernel<T, K><<<static_cast<unsigned>(blocks), launch.threads, 0, launch.stream>>>(
        in, n, static_cast<int>(k), lists);
    CUDA_CHECK_LAUNCH();
    source_kernel<T, K>
        <<<1, launch.threads, 0, launch.stream>>>(lists, blocks * k, static_cast<int>(k), values);
    CUDA_CHECK_LAUNCH();
  });
}

}  // namespace lesson06
