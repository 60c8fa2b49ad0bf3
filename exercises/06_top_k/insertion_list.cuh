// Exercise 1 (lesson 06): the seed's key step, a per-thread insertion list. Each thread keeps, in a
// list sorted in descending order, the k largest distinct keys of the elements it reads; write
// insert_value, which puts one key into the list.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "check.hpp"
#include "reference.hpp"  // lesson06::Key, lesson06::kLowestKey

namespace exercise06 {

// `list` holds k keys in descending order. Puts `key` in at its place and lets the last key drop
// out, unless `key` is below the last key or equal to a key already in the list (the list keeps
// distinct keys).
__device__ inline void insert_value(lesson06::Key* list, int k, lesson06::Key key) {
  // TODO: drop the key if it is not above list[k - 1], or if the list holds it already; otherwise
  //   move every smaller key down one place (the last one falls off the end) and put the key in
  //   the gap. Keys are unsigned integers: compare them with < and ==.
  (void)list;
  (void)k;
  (void)key;
}

constexpr int kMaxK = 64;

// Thread t reads the elements t, t + T, t + 2T, ... (T threads in all), keeps its k largest
// distinct keys, starting from a list of the lowest key, and writes its list to lists[t * k].
__global__ void thread_lists_kernel(const std::int32_t* in, std::size_t n, int k,
                                    lesson06::Key* lists) {
  lesson06::Key list[kMaxK];
  for (int j = 0; j < k; ++j)
    list[j] = lesson06::kLowestKey;
  const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = thread; i < n; i += threads)
    insert_value(list, k, course::order_key(in[i]));
  for (int j = 0; j < k; ++j)
    lists[thread * k + j] = list[j];
}

// Runs the kernel: `blocks` x `threads` lists of k keys (1 <= k <= 64) at d_lists.
inline void thread_lists(const std::int32_t* d_in, std::size_t n, int k, int blocks, int threads,
                         lesson06::Key* d_lists) {
  if (k < 1 || k > kMaxK) throw std::invalid_argument("k must be from 1 to 64");
  thread_lists_kernel<<<blocks, threads>>>(d_in, n, k, d_lists);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace exercise06
