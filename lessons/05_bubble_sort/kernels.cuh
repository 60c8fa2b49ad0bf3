// Lesson 05's kernels, one per version, each with the host function that launches it, and the
// libraries a user would call instead. Every version sorts n floats from `in` into `out` (both on
// the GPU; `in` is left as it was) in IEEE 754 totalOrder (reference.hpp).
//
//   v0  the seed's kernel: one block, the array in shared memory, n/2 + 1 rounds of two phases
//   v1  the seed's exercise 1: the same in global memory
//   v2  the seed's exercise 2: blocks sort segments of 2 * threads; launches alternate between
//       offset 0 and offset `threads`, driven from the host, one pair per segment
//   v3  v2 for any n: the last segment is padded with the last float
//   v4  bitonic sort of one block in shared memory: log2(n) (log2(n) + 1) / 2 phases, not n
//   v5  bitonic sort of any n: blocks sort chunks, then global-memory passes for the strides
//       longer than a chunk, and a shared-memory pass for the rest
//   v6  v5 with up to four strides per global pass, in registers
//   v7  v6 on 32-bit keys made once at load: a comparison is an integer min and max
//   v8  v7 with groups of strides in shared memory too (a third of the barriers), and chunks
//       twice as large
//   Thrust / CUB  thrust::sort, and cub::DeviceRadixSort::SortKeys with its scratch kept
#pragma once

#include <thrust/execution_policy.h>
#include <thrust/sort.h>
#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <stdexcept>
#include <string>
#include <vector>

#include "check.hpp"
#include "device_memory.hpp"
#include "launch.hpp"
#include "reference.hpp"
#include "table.hpp"

namespace lesson05 {

struct Launch {
  cudaStream_t stream = nullptr;
  int threads = kSeedThreads;  // block size of v0 to v3; v2's and v3's segment is twice this
};

using Run = void (*)(const float* in, float* out, std::size_t n, const Launch& launch);

inline void require_threads(const Launch& launch) {
  if (launch.threads < 32 || launch.threads > 1024 || launch.threads % 32 != 0) {
    throw std::invalid_argument("threads must be a multiple of 32 from 32 to 1024");
  }
}

// ---- v0: the seed's kernel ----------------------------------------------------------------------

// One block. The array goes into shared memory; phase p compares the pairs that start at even
// places (p even) or odd places (p odd), each thread taking every blockDim.x-th pair, and a barrier
// ends the phase. The seed's count of phases, n/2 + 1 rounds of two (seed_phases). A pair is
// compared only when both its places hold data: the seed's last thread also reads s[N], past it.
// `before` is the comparison: the course's, or the seed's (a < b, --seed-compare).
template <typename Before>
__global__ void seed_odd_even_kernel(const float* in, float* out, unsigned n, Before before) {
  extern __shared__ float s[];
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
    s[i] = in[i];
  __syncthreads();  // every element loaded before any thread compares it with its neighbour
  const unsigned phases = static_cast<unsigned>(seed_phases(n));
  for (unsigned phase = 0; phase < phases; ++phase) {
    for (unsigned i = 2 * threadIdx.x + (phase & 1u); i + 1 < n; i += 2 * blockDim.x) {
      const float a = s[i];
      const float b = s[i + 1];
      if (before(b, a)) {
        s[i] = b;
        s[i + 1] = a;
      }
    }
    __syncthreads();
  }
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = s[i];
}

// v0 takes the n that fit in one block's shared memory.
inline std::string v0_limit(std::size_t n, const Launch&) {
  const std::size_t most = course::max_shared_bytes() / sizeof(float);
  return n <= most ? "" : course::format("one block's shared memory holds %zu floats", most);
}

template <typename Before = TotalOrder>
void odd_even_shared(const float* in, float* out, std::size_t n, const Launch& launch,
                     Before before = {}) {
  require_threads(launch);
  const std::string why = v0_limit(n, launch);
  if (!why.empty()) throw std::invalid_argument("v0: " + why);
  const std::size_t bytes = n * sizeof(float);
  course::allow_shared_bytes(seed_odd_even_kernel<Before>, bytes);
  seed_odd_even_kernel<<<1, launch.threads, bytes, launch.stream>>>(
      in, out, static_cast<unsigned>(n), before);
  CUDA_CHECK_LAUNCH();
}

inline void sort_v0(const float* in, float* out, std::size_t n, const Launch& launch) {
  odd_even_shared(in, out, n, launch);
}

// ---- v1: global memory
// ----------------------------------------------------------------------------

// v0 with the array in global memory: the block copies `in` to `out` and sorts `out` in place.
// __syncthreads() orders the block's global-memory accesses as it does its shared ones.
__global__ void odd_even_global_kernel(const float* in, float* out, std::size_t n) {
  for (std::size_t i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = in[i];
  __syncthreads();
  for (std::size_t phase = 0; phase < seed_phases(n); ++phase) {
    for (std::size_t i = 2 * threadIdx.x + (phase & 1u); i + 1 < n; i += 2 * blockDim.x)
      order_pair(out[i], out[i + 1]);
    __syncthreads();
  }
}

// The quadratic versions stop somewhere: past these sizes one run takes seconds (--sweep).
constexpr std::size_t kOneBlockMaxN = std::size_t{1} << 17;
constexpr std::size_t kMultiBlockMaxN = std::size_t{1} << 21;

inline std::string v1_limit(std::size_t n, const Launch&) {
  return n <= kOneBlockMaxN ? "" : "quadratic in one block: n <= 2^17 (see --sweep)";
}

inline void sort_v1(const float* in, float* out, std::size_t n, const Launch& launch) {
  require_threads(launch);
  odd_even_global_kernel<<<1, launch.threads, 0, launch.stream>>>(in, out, n);
  CUDA_CHECK_LAUNCH();
}

// ---- v2 and v3: many blocks, launches alternating from the host
// -----------------------------------

// Block b sorts the segment of 2 * blockDim.x elements that starts at offset + b * segment, by
// odd-even transposition in shared memory. kPad: places at n or past it read as the last float,
// and are not written back.
template <bool kPad>
__global__ void odd_even_segment_kernel(const float* in, float* out, std::size_t n,
                                        std::size_t offset) {
  extern __shared__ float s[];
  const unsigned segment = 2 * blockDim.x;
  const std::size_t base = offset + blockIdx.x * static_cast<std::size_t>(segment);
  for (unsigned i = threadIdx.x; i < segment; i += blockDim.x)
    s[i] = (!kPad || base + i < n) ? in[base + i] : last_float();
  __syncthreads();
  for (unsigned phase = 0; phase < segment; ++phase) {
    const unsigned i = 2 * threadIdx.x + (phase & 1u);
    if (i + 1 < segment) order_pair(s[i], s[i + 1]);
    __syncthreads();
  }
  for (unsigned i = threadIdx.x; i < segment; i += blockDim.x) {
    if (!kPad || base + i < n) out[base + i] = s[i];
  }
}

// One round sorts the segments at offset 0, then those at offset `threads` (half a segment). With
// m segments, m rounds are 2m phases of odd-even transposition over the 2m half-segments, each
// phase merging neighbours: enough, as n phases are for n single elements.
template <bool kPad>
void odd_even_rounds(const float* in, float* out, std::size_t n, const Launch& launch) {
  require_threads(launch);
  const std::size_t segment = 2 * static_cast<std::size_t>(launch.threads);
  const std::size_t segments = (n + segment - 1) / segment;
  const std::size_t bytes = segment * sizeof(float);
  for (std::size_t round = 0; round < segments; ++round) {
    odd_even_segment_kernel<kPad>
        <<<static_cast<unsigned>(segments), launch.threads, bytes, launch.stream>>>(
            round == 0 ? in : out, out, n, 0);
    CUDA_CHECK_LAUNCH();
    if (segments > 1) {
      odd_even_segment_kernel<kPad>
          <<<static_cast<unsigned>(segments - 1), launch.threads, bytes, launch.stream>>>(
              out, out, n, segment / 2);
      CUDA_CHECK_LAUNCH();
    }
  }
}

inline std::string v2_limit(std::size_t n, const Launch& launch) {
  const std::size_t segment = 2 * static_cast<std::size_t>(launch.threads);
  if (n % segment != 0) {
    return course::format("n must be a multiple of the segment, %zu (v3 takes any n)", segment);
  }
  return n <= kMultiBlockMaxN ? "" : "quadratic: n <= 2^21 (see --sweep)";
}

inline std::string v3_limit(std::size_t n, const Launch&) {
  return n <= kMultiBlockMaxN ? "" : "quadratic: n <= 2^21 (see --sweep)";
}

inline void sort_v2(const float* in, float* out, std::size_t n, const Launch& launch) {
  if (n % (2 * static_cast<std::size_t>(launch.threads)) != 0) {
    throw std::invalid_argument("v2: " + v2_limit(n, launch));
  }
  odd_even_rounds<false>(in, out, n, launch);
}

inline void sort_v3(const float* in, float* out, std::size_t n, const Launch& launch) {
  odd_even_rounds<true>(in, out, n, launch);
}

// ---- v4: bitonic sort of one block ------------------------------------------------------------

// The bitonic network in its "flip" form, in which every comparison sends the smaller value to
// the lower place. Stage k (2, 4, ..., size) first compares each place x of the lower half of
// every k-block with its mirror x ^ (k - 1) in the upper half (the flip), which leaves both halves
// bitonic; then half-cleaners of strides k/4, ..., 1 compare x with x + j. Every thread takes
// every blockDim.x-th pair of a step; a barrier ends the step.
//
// The kernels from here on are templates on T, what they hold between loading and storing: the
// floats themselves (compared in totalOrder), or, from v7 on, their 32-bit keys (As<T> below).

// v7: a key compares with one integer min and one max; a float in totalOrder needs its bits
// turned into a key first, both of them, at every comparison.
__device__ __forceinline__ void order_pair(std::uint32_t& a, std::uint32_t& b) {
  const std::uint32_t low = a < b ? a : b;
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
  // Eight loads in flight per thread, not one: a load waits some 600 ns for memory, and a block
  // that issues one at a time spends most of its life waiting.
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

// ---- v5 to v8: bitonic sort of any n ------------------------------------------------------------

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
  const std::size_t step = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t g = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; g < groups;
       g += step) {
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

constexpr unsigned kBigChunk = 16384;  // keys a block of v8 sorts: 66 KiB with the padding

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
  const unsigned chunk = static_cast<unsigned>(std::min<std::size_t>(p, how.chunk));
  const unsigned chunks = static_cast<unsigned>((n + chunk - 1) / chunk);
  // One kernel sorts the chunks, another ends each longer stage: v8's grouped ones, or v5's.
  auto sort_kernel =
      how.grouped_shared ? bitonic_chunk_grouped_kernel<T, false> : bitonic_chunk_kernel<T, false>;
  auto merge_kernel =
      how.grouped_shared ? bitonic_chunk_grouped_kernel<T, true> : bitonic_chunk_kernel<T, true>;
  const std::size_t bytes = (how.grouped_shared ? chunk + chunk / 32 : chunk) * sizeof(T);
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

// ---- the versions, in order -------------------------------------------------------------------

struct Version {
  const char* name;
  const char* idea;
  Run run;
  // "" when the version takes n (with these launch settings); otherwise why not.
  std::string (*limit)(std::size_t n, const Launch& launch);
};

inline const std::vector<Version>& versions() {
  static const std::vector<Version> all = {
      {"v0", "seed: one block, shared memory, n/2+1 rounds", sort_v0, v0_limit},
      {"v1", "the same in global memory (seed ex. 1)", sort_v1, v1_limit},
      {"v2", "blocks sort segments, host alternates (ex. 2)", sort_v2, v2_limit},
      {"v3", "v2 for any n: pad with the last float", sort_v3, v3_limit},
      {"v4", "bitonic network, one block, log^2 phases", sort_v4, v4_limit},
      {"v5", "bitonic, any n: global passes, then shared", sort_v5, any_n},
      {"v6", "up to 4 strides per global pass, in registers", sort_v6, any_n},
      {"v7", "sort 32-bit keys: a comparison is a min and a max", sort_v7, any_n},
      {"v8", "groups of strides in shared memory too, 16Ki chunks", sort_v8, any_n},
  };
  return all;
}

// ---- the libraries ----------------------------------------------------------------------------

// The libraries take n below 2^31 here (CUB's item count was an int before CCCL 2.7).
constexpr std::size_t kLibraryMaxN = INT_MAX;

// cub::DeviceRadixSort::SortKeys, out of place, with its scratch allocated once: the fastest a
// user can sort floats. CUB reads -0.0 and +0.0 as one key and keeps them in input order.
class CubSort {
 public:
  explicit CubSort(std::size_t n) : n_(n) {
    std::size_t bytes = 0;
    CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, static_cast<const float*>(nullptr),
                                              static_cast<float*>(nullptr), static_cast<int>(n)));
    temp_ = course::DeviceBuffer<unsigned char>(std::max<std::size_t>(bytes, 1));
  }
  void operator()(const float* in, float* out, cudaStream_t stream = nullptr) {
    std::size_t bytes = temp_.size();
    CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp_.data(), bytes, in, out, static_cast<int>(n_), 0,
                                              32, stream));
  }

 private:
  std::size_t n_;
  course::DeviceBuffer<unsigned char> temp_;
};

// thrust::sort, in place, as a user calls it (it allocates its scratch on every call).
inline void thrust_sort(float* data, std::size_t n, cudaStream_t stream = nullptr) {
  thrust::sort(thrust::cuda::par.on(stream), data, data + n);
}

}  // namespace lesson05
