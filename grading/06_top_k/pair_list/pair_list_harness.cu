// The harness of exercise 1 (lesson 06): every thread runs the student's insert_pair over its
// elements, forwards, backwards or scattered, and writes its list.
#include "../../probes/harness.hpp"

#include <pair_list.cuh>  // the student's file

#include <stdexcept>

#include "../../../common/launch.hpp"
#include "pair_list_harness.hpp"

namespace grading06 {
namespace {

#ifdef GRADING_SASS
// For the compiled-code check (scripts/check_compiled.py): the student's insertion in a function of
// its own, so that its instructions are read apart from this harness's loads and stores.
__device__ __noinline__ void students_insert(std::uint32_t* keys, std::uint32_t* indices, int k,
                                             std::uint32_t key, std::uint32_t index) {
  exercise06::insert_pair(keys, indices, k, key, index);
}
#else
__device__ inline void students_insert(std::uint32_t* keys, std::uint32_t* indices, int k,
                                       std::uint32_t key, std::uint32_t index) {
  exercise06::insert_pair(keys, indices, k, key, index);
}
#endif

__device__ std::size_t gcd(std::size_t a, std::size_t b) {
  while (b != 0) {
    const std::size_t r = a % b;
    a = b;
    b = r;
  }
  return a;
}

__global__ void pair_lists_kernel(const std::uint32_t* keys, std::size_t n, int k, Order order,
                                  std::uint32_t* keys_out, std::uint32_t* indices_out) {
  std::uint32_t list_keys[kMaxK];
  std::uint32_t list_indices[kMaxK];
  for (int j = 0; j < k; ++j) {
    list_keys[j] = exercise06::kLowestKey;
    list_indices[j] = 0xFFFFFFFFu;
  }
  const std::size_t thread = course::first_index();
  const std::size_t threads = course::grid_stride();
  if (thread < n) {
    const std::size_t last = thread + (n - 1 - thread) / threads * threads;
    const std::size_t mine = (last - thread) / threads + 1;  // the thread's keys
    // Scattered: step s visits key (s * stride + thread) mod mine, a stride prime to `mine`.
    std::size_t stride = 7919 + 2 * (thread % 64);
    while (gcd(stride, mine) != 1)
      stride += 2;
    for (std::size_t step = 0; step < mine; ++step) {
      const std::size_t place = order == Order::forwards    ? step
                                : order == Order::backwards ? mine - 1 - step
                                                            : (step * stride + thread) % mine;
      const std::size_t i = thread + place * threads;
      students_insert(list_keys, list_indices, k, keys[i], static_cast<std::uint32_t>(i));
    }
  }
  for (int j = 0; j < k; ++j) {
    keys_out[thread * k + j] = list_keys[j];
    indices_out[thread * k + j] = list_indices[j];
  }
}

}  // namespace

void pair_lists(const std::uint32_t* d_keys, std::size_t n, int k, int blocks, int threads,
                Order order, std::uint32_t* d_keys_out, std::uint32_t* d_indices_out) {
  if (k < 1 || k > kMaxK) throw std::invalid_argument("k must be from 1 to 64");
  grading::watched([&] {
    pair_lists_kernel<<<blocks, threads>>>(d_keys, n, k, order, d_keys_out, d_indices_out);
  });
}

}  // namespace grading06
