// Exercise 2 (lesson 06): the seed's open question, an O(k) merge. Two lists of k keys, each in
// descending order, become the k largest of both, in descending order, by walking each list once
// with a pointer; the seed inserted one list's keys into the other one at a time, O(k^2).
#pragma once

#include <cstddef>
#include <stdexcept>

#include "check.hpp"
#include "reference.hpp"  // lesson06::Key, lesson06::kLowestKey, lesson06::insert_kept

namespace exercise06 {

// The k largest keys of a[0..k) and b[0..k), both descending, written to out[0..k) in descending
// order, duplicates kept. O(k): each step takes the larger of the two keys the pointers are at.
__device__ inline void merge_top_k(const lesson06::Key* a, const lesson06::Key* b, int k,
                                   lesson06::Key* out) {
  int i = 0;
  int j = 0;
  for (int o = 0; o < k; ++o)
    out[o] = a[i] >= b[j] ? a[i++] : b[j++];
}

// Pair p: out[p * k ...] = the k largest of a[p * k ...] and b[p * k ...].
__global__ void merge_pairs_kernel(const lesson06::Key* a, const lesson06::Key* b, int k,
                                   std::size_t pairs, lesson06::Key* out) {
  const std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (p < pairs) merge_top_k(a + p * k, b + p * k, k, out + p * k);
}

inline void merge_pairs(const lesson06::Key* d_a, const lesson06::Key* d_b, int k,
                        std::size_t pairs, lesson06::Key* d_out) {
  if (k < 1) throw std::invalid_argument("k must be at least 1");
  merge_pairs_kernel<<<static_cast<unsigned>((pairs + 127) / 128), 128>>>(d_a, d_b, k, pairs,
                                                                          d_out);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
}

constexpr int kTreeThreads = 128;
constexpr int kTreeMaxK = 32;

// The merge in lesson 06's v1: each thread keeps its k largest keys (duplicates kept), then the
// block merges its threads' lists in a tree in shared memory with merge_top_k; block b writes its
// block's top k to out[b * k]. (k <= 32.)
__global__ void block_top_k_kernel(const lesson06::Key* keys, std::size_t n, int k,
                                   lesson06::Key* out) {
  __shared__ lesson06::Key lists[kTreeThreads * kTreeMaxK];
  lesson06::Key list[kTreeMaxK];
  lesson06::Key merged[kTreeMaxK];
  for (int j = 0; j < k; ++j)
    list[j] = lesson06::kLowestKey;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    lesson06::insert_kept(list, k, keys[i]);
  }
  for (int j = 0; j < k; ++j)
    lists[threadIdx.x * k + j] = list[j];
  __syncthreads();
  for (unsigned length = blockDim.x / 2; length > 0; length /= 2) {
    if (threadIdx.x < length) merge_top_k(list, lists + (threadIdx.x + length) * k, k, merged);
    __syncthreads();
    if (threadIdx.x < length) {
      for (int j = 0; j < k; ++j) {
        list[j] = merged[j];
        lists[threadIdx.x * k + j] = merged[j];
      }
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    for (int j = 0; j < k; ++j)
      out[blockIdx.x * static_cast<std::size_t>(k) + j] = list[j];
  }
}

inline void block_top_k(const lesson06::Key* d_keys, std::size_t n, int k, int blocks,
                        lesson06::Key* d_out) {
  if (k < 1 || k > kTreeMaxK) throw std::invalid_argument("k must be from 1 to 32");
  block_top_k_kernel<<<blocks, kTreeThreads>>>(d_keys, n, k, d_out);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace exercise06
