// v5 to v8: the bitonic network for any n. Blocks sort chunks in shared memory; every longer stage
// runs its long strides as passes over global memory (v5 one stride a pass, v6 up to four, in
// registers), then its short ones in shared memory. v7 sorts 32-bit keys, v8 groups the
// shared-memory strides too.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "check.hpp"
#include "launch.hpp"
#include "settings.cuh"
#include "v4_bitonic_block.cuh"

namespace lesson05 {

// kLevels consecutive steps of one stage, on a group of 2^kLevels places that the steps only ever
// compare among themselves: the places of group g, in ascending order, and the network on their
// values. kFlip: the first step is the flip of stage `span` (its pairs are x and x ^ (span - 1)),
// and the rest are its half-cleaners span/4, ...; otherwise the steps are half-cleaners of strides
// span, span/2, .... Index: std::size_t in global memory, unsigned in shared memory.
template <typename Index, int kLevels, bool kFlip>
struct Group {
  static constexpr int kCount = 1 << kLevels;
  Index first;  // the group's first place
  Index low;    // its shortest stride
  Index mask;   // span - 1: the flip's mirror is x ^ mask

  __device__ Group(Index g, Index span)
      : low(kFlip ? span >> kLevels : span >> (kLevels - 1)), mask(span - 1) {
    const int low_bits = __ffsll(static_cast<long long>(low)) - 1;
    // g with kLevels zero bits put in at the shortest stride's bit.
    first = ((g >> low_bits) << (low_bits + kLevels)) | (g & (low - 1));
  }

  // Place b of the group, in ascending order; with a flip, the upper half is the mirror of the
  // lower half. Worked out where it is used rather than kept: 16 places of 64 bits would take 32
  // registers, and a thread with too many registers leaves the SM short of threads.
  __device__ Index place(int b) const {
    if (kFlip && b >= kCount / 2) return (first + (kCount - 1 - b) * low) ^ mask;
    return first + b * low;
  }

  // Runs the steps on v[b], the value at place[b].
  template <typename T>
  __device__ static void order(T (&v)[kCount]) {
    if (kFlip) {
#pragma unroll
      for (int b = 0; b < kCount / 2; ++b)
        order_pair(v[b], v[kCount - 1 - b]);
    }
#pragma unroll
    for (int h = kFlip ? kCount / 4 : kCount / 2; h > 0; h /= 2) {
#pragma unroll
      for (int b = 0; b < kCount; ++b) {
        if ((b & h) == 0) order_pair(v[b], v[b + h]);
      }
    }
  }
};

// The groups' steps in global memory, one group per thread at a time. Places at n or past it read
// as the last value; the network only ever moves the larger value up, so they are never written.
// v5 runs one step per launch (kLevels = 1).
template <typename T, int kLevels, bool kFlip>
__global__ void __launch_bounds__(256)
    bitonic_global_kernel(float* data, std::size_t n, std::size_t span, std::size_t groups) {
  using G = Group<std::size_t, kLevels, kFlip>;
  for (std::size_t g = course::first_index(); g < groups; g += course::grid_stride()) {
    const G group(g, span);
    T v[G::kCount];
#pragma unroll
    for (int b = 0; b < G::kCount; ++b)
      v[b] = group.place(b) < n ? As<T>::in(data[group.place(b)]) : As<T>::last();
    G::order(v);
#pragma unroll
    for (int b = 0; b < G::kCount; ++b) {
      if (group.place(b) < n) data[group.place(b)] = As<T>::out(v[b]);
    }
  }
}

constexpr int kMaxLevels = 4;  // v6 to v8: up to four steps per pass, 16 values per thread

// The passes that run `left` steps of a stage, the first at `span` (a flip when `flip`), up to
// max_levels steps each; host and device code share it:
//   Passes passes{span, flip, left, max_levels};
//   while (passes.next()) run(passes.levels, passes.span, passes.flip);
struct Passes {
  std::size_t next_span;
  bool next_flip;
  int left;
  int max_levels;
  int levels = 0;
  std::size_t span = 0;
  bool flip = false;

  __host__ __device__ bool next() {
    if (left <= 0) return false;
    levels = left < max_levels ? left : max_levels;
    span = next_span;
    flip = next_flip;
    // The next pass starts at the stride after the shortest one this pass runs.
    next_span = flip ? span >> (levels + 1) : span >> levels;
    next_flip = false;
    left -= levels;
    return true;
  }
};

template <typename T, int kLevels>
void global_steps(float* data, std::size_t n, std::size_t p, std::size_t span, bool flip,
                  cudaStream_t stream) {
  const std::size_t groups = p >> kLevels;
  constexpr int kThreads = 256;
  const std::size_t most = static_cast<std::size_t>(course::sm_count()) * 16;
  const unsigned blocks = static_cast<unsigned>(std::min(most, (groups + kThreads - 1) / kThreads));
  if (flip) {
    bitonic_global_kernel<T, kLevels, true><<<blocks, kThreads, 0, stream>>>(data, n, span, groups);
  } else {
    bitonic_global_kernel<T, kLevels, false>
        <<<blocks, kThreads, 0, stream>>>(data, n, span, groups);
  }
  CUDA_CHECK_LAUNCH();
}

// v8: the same groups in shared memory. A chunk of 2^13 then takes 28 barriers to sort instead
// of 91, and 4 to merge instead of 13, and a block can afford a larger chunk. Place i lives at
// i + i / 32, so that the 32 threads of a warp, whose groups start 16 places apart when the
// shortest stride is 1, find 32 different banks.
struct Padded {
  __device__ unsigned operator()(unsigned i) const { return i + (i >> 5); }
};

template <typename T, int kLevels, bool kFlip>
__device__ void group_steps_shared(T* s, unsigned size, unsigned span) {
  using G = Group<unsigned, kLevels, kFlip>;
  for (unsigned g = threadIdx.x; g < (size >> kLevels); g += blockDim.x) {
    const G group(g, span);
    T v[G::kCount];
#pragma unroll
    for (int b = 0; b < G::kCount; ++b)
      v[b] = s[Padded{}(group.place(b))];
    G::order(v);
#pragma unroll
    for (int b = 0; b < G::kCount; ++b)
      s[Padded{}(group.place(b))] = v[b];
  }
  __syncthreads();
}

template <typename T>
__device__ void steps_shared(T* s, unsigned size, unsigned span, bool flip, int left) {
  Passes passes{span, flip, left, kMaxLevels};
  while (passes.next()) {
    const unsigned at = static_cast<unsigned>(passes.span);
    switch (passes.levels * 2 + (passes.flip ? 1 : 0)) {
      case 2:
        group_steps_shared<T, 1, false>(s, size, at);
        break;
      case 3:
        group_steps_shared<T, 1, true>(s, size, at);
        break;
      case 4:
        group_steps_shared<T, 2, false>(s, size, at);
        break;
      case 5:
        group_steps_shared<T, 2, true>(s, size, at);
        break;
      case 6:
        group_steps_shared<T, 3, false>(s, size, at);
        break;
      case 7:
        group_steps_shared<T, 3, true>(s, size, at);
        break;
      case 8:
        group_steps_shared<T, 4, false>(s, size, at);
        break;
      default:
        group_steps_shared<T, 4, true>(s, size, at);
        break;
    }
  }
}

__device__ __forceinline__ int log2_of(unsigned power_of_two) {
  return __ffs(static_cast<int>(power_of_two)) - 1;
}

// v8's chunk sort (kMerge false: every stage) and chunk merge (kMerge: the half-cleaners
// size/2, ..., 1 that end a longer stage), in padded shared memory.
constexpr int kGroupedThreads = 512;  // two blocks of v8 fit on an SM: one computes, one loads

template <typename T, bool kMerge>
__global__ void __launch_bounds__(kGroupedThreads, 2)
    bitonic_chunk_grouped_kernel(const float* in, float* out, std::size_t n, unsigned size) {
  T* s = shared_array<T>();
  load_chunk(s, in, n, size, Padded{});
  if (kMerge) {
    steps_shared(s, size, size / 2, false, log2_of(size));
  } else {
    for (unsigned k = 2; k <= size; k *= 2)
      steps_shared(s, size, k, true, log2_of(k));
  }
  store_chunk(s, out, n, size, Padded{});
}

constexpr unsigned kBigChunk = 16384;  // keys a block of v8 sorts: 66 KiB with the padding (or
                                       // half as many, where a block may not have 66 KiB)

// How a bitonic version of any n runs: steps per global pass, keys or floats, the shared-memory
// steps grouped (v8) or one per barrier, and the chunk a block sorts.
struct Bitonic {
  int max_levels;
  bool keys;
  bool grouped_shared;
  unsigned chunk;
};

// Sorts any n: chunks sorted in shared memory, then, for every longer stage, its strides down to
// a chunk's length in global passes of up to max_levels strides each, and the rest in shared
// memory.
template <typename T>
void bitonic_any_n_as(const float* in, float* out, std::size_t n, const Bitonic& how,
                      cudaStream_t stream) {
  const std::size_t p = power_of_two_at_least(n);
  unsigned chunk = static_cast<unsigned>(std::min<std::size_t>(p, how.chunk));
  const auto chunk_bytes = [&](unsigned c) {
    return (how.grouped_shared ? c + c / 32 : c) * sizeof(T);
  };
  // A GPU whose blocks may not have a chunk's shared memory (v8's 66 KiB: a T4 allows 64 KiB)
  // sorts chunks half as long.
  while (chunk > 1024 && chunk_bytes(chunk) > course::max_shared_bytes())
    chunk /= 2;
  const unsigned chunks = static_cast<unsigned>((n + chunk - 1) / chunk);
  // One kernel sorts the chunks, another ends each longer stage: v8's grouped ones, or v5's.
  auto sort_kernel =
      how.grouped_shared ? bitonic_chunk_grouped_kernel<T, false> : bitonic_chunk_kernel<T, false>;
  auto merge_kernel =
      how.grouped_shared ? bitonic_chunk_grouped_kernel<T, true> : bitonic_chunk_kernel<T, true>;
  const std::size_t bytes = chunk_bytes(chunk);
  const unsigned threads =
      how.grouped_shared ? std::max(32u, std::min<unsigned>(kGroupedThreads, chunk >> kMaxLevels))
                         : chunk_threads(chunk);
  course::allow_shared_bytes(sort_kernel, bytes);
  course::allow_shared_bytes(merge_kernel, bytes);
  sort_kernel<<<chunks, threads, bytes, stream>>>(in, out, n, chunk);
  CUDA_CHECK_LAUNCH();
  for (std::size_t k = 2 * static_cast<std::size_t>(chunk); k <= p; k *= 2) {
    // Strides k/2 (the flip), k/4, ..., chunk: log2(k / chunk) of them, in global memory.
    int left = 0;
    for (std::size_t s = k / 2; s >= chunk; s /= 2)
      ++left;
    Passes passes{k, true, left, how.max_levels};
    while (passes.next()) {
      switch (passes.levels) {
        case 1:
          global_steps<T, 1>(out, n, p, passes.span, passes.flip, stream);
          break;
        case 2:
          global_steps<T, 2>(out, n, p, passes.span, passes.flip, stream);
          break;
        case 3:
          global_steps<T, 3>(out, n, p, passes.span, passes.flip, stream);
          break;
        default:
          global_steps<T, 4>(out, n, p, passes.span, passes.flip, stream);
          break;
      }
    }
    merge_kernel<<<chunks, threads, bytes, stream>>>(out, out, n, chunk);
    CUDA_CHECK_LAUNCH();
  }
}

inline void bitonic_any_n(const float* in, float* out, std::size_t n, const Bitonic& how,
                          cudaStream_t stream) {
  if (how.keys) {
    bitonic_any_n_as<std::uint32_t>(in, out, n, how, stream);
  } else {
    bitonic_any_n_as<float>(in, out, n, how, stream);
  }
}

inline std::string any_n(std::size_t, const Launch&) {
  return "";
}

inline void sort_v5(const float* in, float* out, std::size_t n, const Launch& launch) {
  bitonic_any_n(in, out, n, {1, false, false, kChunk}, launch.stream);
}

inline void sort_v6(const float* in, float* out, std::size_t n, const Launch& launch) {
  bitonic_any_n(in, out, n, {kMaxLevels, false, false, kChunk}, launch.stream);
}

inline void sort_v7(const float* in, float* out, std::size_t n, const Launch& launch) {
  bitonic_any_n(in, out, n, {kMaxLevels, true, false, kChunk}, launch.stream);
}

inline void sort_v8(const float* in, float* out, std::size_t n, const Launch& launch) {
  bitonic_any_n(in, out, n, {kMaxLevels, true, true, kBigChunk}, launch.stream);
}

}  // namespace lesson05
