// v1 and v2: the source's lists, merged in O(k) with two pointers and duplicates kept, on 32
// blocks; v2 puts the block's lists in dynamic shared memory, past the 48 KiB of a static array.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "../reference.hpp"
#include "check.hpp"
#include "device_memory.hpp"
#include "launch.hpp"
#include "settings.cuh"
#include "v0_source.cuh"

namespace lesson06 {

// The blocks of v1's and v2's first launch.
inline int merge_blocks(const Launch& launch) {
  return launch.blocks > 0 ? launch.blocks : kCourseBlocks;
}

// Where the block's lists live: a static array of 48 KiB (v1), or dynamic shared memory, sized
// at launch (v2).
template <bool kDynamicShared>
__device__ Key* list_storage() {
  if constexpr (kDynamicShared) {
    extern __shared__ Key dynamic_lists[];
    return dynamic_lists;
  } else {
    __shared__ Key static_lists[kStaticListKeys];
    return static_lists;
  }
}

// v1 an O(k) merge: two lists become one by walking both once with two pointers (v0 inserted the
// partner's keys one by one), and duplicates are kept, so the answer is the course's top-k.
// v2 the same kernel with kDynamicShared: the lists in dynamic shared memory, which a kernel may
// have past 48 KiB once it opts in (v1: a static array, 48 KiB at most).
template <typename T, int K, bool kDynamicShared>
__global__ void merge_kernel(const T* in, std::size_t n, int k, T* out) {
  Key* lists = list_storage<kDynamicShared>();
  Key list[K];
  Key merged[K];
  start_list(list, k, ListStart::lowest);
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    insert_kept(list, k, course::order_key(in[i]));
  }
  Key* mine = lists + threadIdx.x * k;
  for (int j = 0; j < k; ++j)
    mine[j] = list[j];
  __syncthreads();
  for (unsigned length = blockDim.x / 2; length > 0; length /= 2) {
    if (threadIdx.x < length) merge_top_k(list, lists + (threadIdx.x + length) * k, k, merged);
    __syncthreads();  // (1) every list of this step read before any is written
    if (threadIdx.x < length) {
      for (int j = 0; j < k; ++j) {
        list[j] = merged[j];
        mine[j] = merged[j];
      }
    }
    __syncthreads();  // (2) every list written before the next step reads it
  }
  if (threadIdx.x == 0) {
    for (int j = 0; j < k; ++j)
      out[blockIdx.x * static_cast<std::size_t>(k) + j] = course::from_order_key<T>(list[j]);
  }
}

inline std::string v1_limit(std::size_t n, std::size_t k, const Launch& launch) {
  return source_limit(n, k, launch);
}

inline std::string v2_limit(std::size_t, std::size_t k, const Launch& launch) {
  const std::string threads = threads_limit(launch);
  if (!threads.empty()) return threads;
  const std::string shared =
      lists_limit(k, launch, course::max_shared_bytes(), "this GPU's opt-in shared memory");
  if (!shared.empty()) return shared;
  return k <= static_cast<std::size_t>(kMaxListLength) ? "" : "a thread's list holds 2048 keys";
}

// The two launches of v1 and v2: the grid's blocks, then one block on their k * blocks keys.
template <typename T, bool kDynamicShared>
void merge_two_launches(const T* in, std::size_t n, std::size_t k, T* values, T* block_lists,
                        const Launch& launch) {
  const std::size_t bytes = kDynamicShared ? lists_bytes(launch.threads, k) : 0;
  const int blocks = merge_blocks(launch);
  with_list_length(k, [&](auto length) {
    constexpr int K = decltype(length)::value;
    const auto kernel = merge_kernel<T, K, kDynamicShared>;
    course::allow_shared_bytes(kernel, bytes);
    kernel<<<blocks, launch.threads, bytes, launch.stream>>>(in, n, static_cast<int>(k),
                                                             block_lists);
    CUDA_CHECK_LAUNCH();
    kernel<<<1, launch.threads, bytes, launch.stream>>>(
        block_lists, static_cast<std::size_t>(blocks) * k, static_cast<int>(k), values);
    CUDA_CHECK_LAUNCH();
  });
}

// v1's and v2's workspace: the blocks' lists, made for the k and the grid they are given.
template <typename T>
struct MergeLists {
  MergeLists(std::size_t k, const Launch& launch)
      : lists(static_cast<std::size_t>(merge_blocks(launch)) * k) {}
  course::DeviceBuffer<T> lists;
};

// v1 (kDynamicShared false) and v2 (true), after their limits and the workspace are checked.
template <typename T, bool kDynamicShared>
void top_k_merge(const T* in, std::size_t n, std::size_t k, T* values, MergeLists<T>& ws,
                 const Launch& launch) {
  const char* name = kDynamicShared ? "v2: " : "v1: ";
  const std::string why = kDynamicShared ? v2_limit(n, k, launch) : v1_limit(n, k, launch);
  if (!why.empty()) throw std::invalid_argument(name + why);
  if (ws.lists.size() < static_cast<std::size_t>(merge_blocks(launch)) * k) {
    throw std::invalid_argument(std::string(name) +
                                "the workspace was made for fewer blocks or a smaller k");
  }
  merge_two_launches<T, kDynamicShared>(in, n, k, values, ws.lists.data(), launch);
}

}  // namespace lesson06
