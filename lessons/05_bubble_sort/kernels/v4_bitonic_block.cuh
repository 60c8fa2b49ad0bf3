// v4: the bitonic network in one block, in shared memory: log2(n) (log2(n) + 1) / 2 phases where
// odd-even transposition needs n. Its pieces (the comparison on keys, the chunk's load and store,
// the chunk kernel) are what v5 to v8 build on.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "../order.hpp"
#include "bits.hpp"
#include "check.hpp"
#include "format.hpp"
#include "settings.cuh"

namespace lesson05 {

// The bitonic network in its "flip" form, in which every comparison sends the smaller value to
// the lower place. Stage k (2, 4, ..., size) first compares each place x of the lower half of
// every k-block with its mirror x ^ (k - 1) in the upper half (the flip), which leaves both halves
// bitonic; then half-cleaners of strides k/4, ..., 1 compare x with x + j. Every thread takes
// every blockDim.x-th pair of a step; a barrier ends the step.
//
// The kernels from here on are templates on T, what they hold between loading and storing: the
// floats themselves (compared in totalOrder), or, from v7 on, their 32-bit keys (As<T> below).

// v7: a key compares with one integer min and one max; a float in totalOrder needs its bits
// turned into a key first, both of them, at every comparison. Keys are 32-bit, or, in v9's stable
// sort, 64-bit: a key and an index in one item (v9_merge_path.cuh).
template <typename Key, typename = std::enable_if_t<std::is_unsigned<Key>::value>>
__device__ __forceinline__ void order_pair(Key& a, Key& b) {
  const Key low = a < b ? a : b;
  b = a < b ? b : a;
  a = low;
}

template <typename T>
struct As;
template <>
struct As<float> {
  __device__ static float in(float x) { return x; }
  __device__ static float out(float x) { return x; }
  __device__ static float last() { return last_float(); }
};
template <>
struct As<std::uint32_t> {
  __device__ static std::uint32_t in(float x) { return course::order_key(x); }
  __device__ static float out(std::uint32_t key) { return course::from_order_key<float>(key); }
  __device__ static std::uint32_t last() { return 0xFFFFFFFFu; }
};

// One block's dynamic shared memory, as an array of T.
template <typename T>
__device__ T* shared_array() {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  return reinterpret_cast<T*>(shared_bytes);
}

// The lower place of pair q of a step whose pairs are `j` apart within blocks of 2j.
__device__ __forceinline__ unsigned lower_of_pair(unsigned q, unsigned j) {
  return ((q & ~(j - 1)) << 1) | (q & (j - 1));
}

template <typename T>
__device__ void flip_shared(T* s, unsigned size, unsigned k) {
  for (unsigned q = threadIdx.x; q < size / 2; q += blockDim.x) {
    const unsigned lo = lower_of_pair(q, k / 2);
    order_pair(s[lo], s[lo ^ (k - 1)]);
  }
  __syncthreads();
}

template <typename T>
__device__ void half_clean_shared(T* s, unsigned size, unsigned j) {
  for (unsigned q = threadIdx.x; q < size / 2; q += blockDim.x) {
    const unsigned lo = lower_of_pair(q, j);
    order_pair(s[lo], s[lo + j]);
  }
  __syncthreads();
}

// Loads the chunk of `size` places that block b owns into shared memory; places at n or past it
// read as the last value, so they sort to the end of the chunk and are never written back.
// `at` maps a place to its index in shared memory.
template <typename T, typename At>
__device__ void load_chunk(T* s, const float* in, std::size_t n, unsigned size, At at) {
  // Eight loads in flight per thread, not one: a load waits hundreds of clock cycles for memory
  // (CUDA C++ Programming Guide, "Multiprocessor Level"), and a block that issues one at a time
  // spends most of its life waiting.
  constexpr unsigned kBatch = 8;
  const std::size_t base = blockIdx.x * static_cast<std::size_t>(size);
  for (unsigned first = threadIdx.x; first < size; first += kBatch * blockDim.x) {
    T v[kBatch];
#pragma unroll
    for (unsigned u = 0; u < kBatch; ++u) {
      const unsigned i = first + u * blockDim.x;
      v[u] = i < size && base + i < n ? As<T>::in(in[base + i]) : As<T>::last();
    }
#pragma unroll
    for (unsigned u = 0; u < kBatch; ++u) {
      const unsigned i = first + u * blockDim.x;
      if (i < size) s[at(i)] = v[u];
    }
  }
  __syncthreads();
}

template <typename T, typename At>
__device__ void store_chunk(const T* s, float* out, std::size_t n, unsigned size, At at) {
  const std::size_t base = blockIdx.x * static_cast<std::size_t>(size);
  for (unsigned i = threadIdx.x; i < size; i += blockDim.x) {
    if (base + i < n) out[base + i] = As<T>::out(s[at(i)]);
  }
}

struct Plain {
  __device__ unsigned operator()(unsigned i) const { return i; }
};

// Block b sorts places [b * size, (b + 1) * size) of `in` into `out` (kMerge: runs only the
// half-cleaners size/2, ..., 1 that end a stage longer than a chunk, in place).
template <typename T, bool kMerge>
__global__ void bitonic_chunk_kernel(const float* in, float* out, std::size_t n, unsigned size) {
  T* s = shared_array<T>();
  load_chunk(s, in, n, size, Plain{});
  for (unsigned k = kMerge ? size : 2; k <= size; k *= 2) {
    if (!kMerge) flip_shared(s, size, k);
    for (unsigned j = kMerge ? size / 2 : k / 4; j > 0; j /= 2)
      half_clean_shared(s, size, j);
  }
  store_chunk(s, out, n, size, Plain{});
}

// The smallest power of two >= n (1 for n <= 1).
inline std::size_t power_of_two_at_least(std::size_t n) {
  std::size_t p = 1;
  while (p < n)
    p *= 2;
  return p;
}

constexpr unsigned kChunk = 8192;  // floats a block of v4 to v7 sorts in shared memory: 32 KiB
constexpr unsigned kChunkThreads = 1024;

inline unsigned chunk_threads(unsigned size) {
  return std::max(32u, std::min(kChunkThreads, size / 2));
}

inline std::string v4_limit(std::size_t n, const Launch&) {
  return n <= kChunk ? "" : course::format("one block sorts up to %u floats", kChunk);
}

inline void sort_v4(const float* in, float* out, std::size_t n, const Launch& launch) {
  if (n > kChunk) throw std::invalid_argument("v4: " + v4_limit(n, launch));
  const unsigned size = static_cast<unsigned>(power_of_two_at_least(n));
  bitonic_chunk_kernel<float, false>
      <<<1, chunk_threads(size), size * sizeof(float), launch.stream>>>(in, out, n, size);
  CUDA_CHECK_LAUNCH();
}

}  // namespace lesson05
