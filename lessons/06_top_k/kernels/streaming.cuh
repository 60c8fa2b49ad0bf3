// What v3 and v4 share: reading the input with 16-byte loads, a batch at a time, a warp skipping
// the batches it does not want; appending to a list with one atomic per warp; and a key with its
// index in one 64-bit word that orders them.
#pragma once

#include <cstddef>

#include "../keys.hpp"
#include "bits.hpp"
#include "launch.hpp"
#include "vector_loads.cuh"

namespace lesson06 {

// The four elements of a 16-byte vector.
template <typename V>
__device__ auto element_of(const V& v, int j) {
  return j == 0 ? v.x : j == 1 ? v.y : j == 2 ? v.z : v.w;
}

// Calls f(x, i, valid) for every element x = in[i], reading the body with 16-byte loads, kBatch
// of them per thread at a time (the more, the more bytes in flight, and the more registers), and
// the unaligned head and tail one element at a time. kWarpUniform: every lane of a warp makes the
// same calls, with valid = false where it has no element (for code that uses warp votes), and a
// warp skips a batch of its loads unless wanted(x, i) holds for one of its elements; otherwise f is
// called for the elements alone.
template <bool kWarpUniform, int kBatch, typename T, typename F, typename Wanted>
__device__ void for_each_element(const T* in, std::size_t n, F&& f, Wanted&& wanted) {
  const course::Aligned16<T> a(in, n);
  const std::size_t thread = course::first_index();
  const std::size_t threads = course::grid_stride();
  const std::size_t tail = a.head + a.vectors * a.kPerVector;
  if (!kWarpUniform || blockIdx.x == 0) {  // the edges: fewer than 8 elements, the first threads
    const bool head = thread < a.head;
    const bool after = thread < n - tail;
    if (kWarpUniform || head) f(head ? in[thread] : T{}, thread, head);
    if (kWarpUniform || after) f(after ? in[tail + thread] : T{}, tail + thread, after);
  }
  // Warp-uniform: a warp goes round while its first lane has a vector, so all its lanes go
  // together.
  const std::size_t lane = threadIdx.x % course::kWarpSize;
  for (std::size_t v = thread; (kWarpUniform ? v - lane : v) < a.vectors; v += kBatch * threads) {
    typename course::Aligned16<T>::Vector batch[kBatch];
#pragma unroll
    for (int u = 0; u < kBatch; ++u) {
      const std::size_t at = v + u * threads;
      if (at < a.vectors) batch[u] = a.body()[at];
    }
    if (kWarpUniform) {
      bool any = false;
#pragma unroll
      for (int u = 0; u < kBatch; ++u) {
        const std::size_t at = v + u * threads;
#pragma unroll
        for (int j = 0; j < 4; ++j)
          any |= at < a.vectors && wanted(element_of(batch[u], j), a.head + at * 4 + j);
      }
      if (!__any_sync(course::kFullWarp, any)) continue;  // nothing here for this warp
    }
#pragma unroll
    for (int u = 0; u < kBatch; ++u) {
      const std::size_t at = v + u * threads;
      const bool valid = at < a.vectors;
      if (!kWarpUniform && !valid) continue;
#pragma unroll
      for (int j = 0; j < 4; ++j)
        f(valid ? element_of(batch[u], j) : T{}, a.head + at * a.kPerVector + j, valid);
    }
  }
}

struct Always {
  template <typename T>
  __device__ bool operator()(T, std::size_t) const {
    return true;
  }
};

// The warp-aggregated append: each lane where `take` holds gets a place in a list whose length
// is *count, with one atomic for the whole warp. The lowest taking lane reserves room for all of
// them; a lane's place is that reservation plus the number of taking lanes below it. Every lane of
// the warp must call it; what a lane that does not take gets means nothing.
template <typename Count>
__device__ Count warp_reserve(bool take, Count* count) {
  const unsigned takers = __ballot_sync(course::kFullWarp, take);
  if (takers == 0) return 0;
  const unsigned lane = threadIdx.x % course::kWarpSize;
  const int leader = __ffs(static_cast<int>(takers)) - 1;
  Count base = 0;
  if (lane == static_cast<unsigned>(leader)) base = atomicAdd(count, Count(__popc(takers)));
  base = __shfl_sync(course::kFullWarp, base, leader);
  return base + __popc(takers & ((1u << lane) - 1u));
}

// A key and its index in one 64-bit word that orders them: a larger key first, and for equal keys
// the smaller index. 0 is below every real element (v4 takes n < 2^32). v3 orders its winners by
// the same word, with their place in its buffer as the index.
__device__ inline unsigned long long score_of(Key key, std::size_t index) {
  return (static_cast<unsigned long long>(key) << 32) |
         (0xFFFFFFFFu - static_cast<unsigned>(index));
}

}  // namespace lesson06
