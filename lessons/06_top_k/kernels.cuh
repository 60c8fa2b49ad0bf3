// Lesson 06's kernels, one per version, each with the host function that runs it, and the
// libraries a user would call instead. Every version finds the top k of the n values at `in`
// (device memory, int32 or float): the k largest, in descending order (v0: the k largest distinct
// ones), and v3 and v4 their indices too.
//
//   v0  the seed's: one thread per value (n / 256 blocks), per-thread insertion lists, a tree of
//       O(k^2) merges in a static shared array with two barriers per step, a second launch of one
//       block; managed memory
//   v1  the seed's open question: an O(k) two-pointer merge of sorted lists, and duplicates kept,
//       on 32 blocks
//   v2  the lists in dynamic shared memory, opted in past 48 KiB: the seed's wall moves
//   v3  radix select: a histogram of the top digit, the bucket that holds the k-th value, its
//       keys kept as candidates for the next digit; then the k survivors sorted
//   v4  for k <= 32: each warp keeps its top 32 in registers, one per lane, merged by bitonic
//       steps over shuffles, in one pass and one launch
//   CUB / Thrust  a full sort of (value, index) pairs, descending, then the first k
#pragma once

#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>

#include <cooperative_groups.h>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "block_reduce.cuh"
#include "check.hpp"
#include "device_memory.hpp"
#include "launch.hpp"
#include "reference.hpp"
#include "table.hpp"
#include "vector_loads.cuh"

namespace lesson06 {

// How to run v0 to v2 and on which stream every version runs.
struct Launch {
  cudaStream_t stream = nullptr;
  int threads = kSeedThreads;  // per block of v0 to v2: a power of two from 32 to 1024
  int blocks = 0;  // blocks of v0 to v2's first launch; 0: v0 the seed's grid, v1 and v2 32
};

// The blocks of v0's first launch: the seed's one thread per value, unless launch.blocks says.
inline std::size_t v0_blocks(std::size_t n, const Launch& launch) {
  return launch.blocks > 0 ? static_cast<std::size_t>(launch.blocks)
                           : seed_blocks(n, launch.threads);
}

// The blocks of v1's and v2's first launch.
inline int merge_blocks(const Launch& launch) {
  return launch.blocks > 0 ? launch.blocks : kCourseBlocks;
}

// Memory the CPU and the GPU share, moved on demand to whichever touches it: what the seed's
// __managed__ arrays are, sized at run time. Owned like course::DeviceBuffer.
template <typename T>
class ManagedBuffer {
 public:
  explicit ManagedBuffer(std::size_t count) { reserve(count); }
  ~ManagedBuffer() {
    if (data_ != nullptr) cudaFree(data_);
  }
  // Room for at least `count` elements; what was held is lost when it grows.
  void reserve(std::size_t count) {
    if (count <= count_) return;
    if (data_ != nullptr) CUDA_CHECK(cudaFree(data_));
    data_ = nullptr;
    count_ = 0;
    CUDA_CHECK(cudaMallocManaged(reinterpret_cast<void**>(&data_), count * sizeof(T)));
    count_ = count;
  }
  ManagedBuffer(const ManagedBuffer&) = delete;
  ManagedBuffer& operator=(const ManagedBuffer&) = delete;

  T* data() { return data_; }
  std::size_t size() const { return count_; }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// ---- v0: the seed's ----------------------------------------------------------------------------

// A static __shared__ array may be at most 48 KiB: the seed's wall. v0 and v1 declare the largest
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

// v0 the seed's: each thread keeps the k largest distinct keys it sees in a sorted list (the
// seed's insert_value), every slot starting at the lowest key; at the seed's grid a thread sees one
// value. Then the block's threads merge their lists in a tree in shared memory, inserting the
// partner's keys one at a time (O(k^2) a step), and thread 0 writes the block's list. A second
// launch of one block does the same to the blocks' lists (out: k per block).
template <typename T, int K>
__global__ void seed_kernel(const T* in, std::size_t n, int k, T* out) {
  __shared__ Key lists[kStaticListKeys];
  Key list[K];
  start_list(list, k, ListStart::lowest);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
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

inline std::string seed_limit(std::size_t, std::size_t k, const Launch& launch) {
  const std::string threads = threads_limit(launch);
  if (!threads.empty()) return threads;
  return lists_limit(k, launch, course::kDefaultSharedBytes, "a static shared array");
}

template <typename T>
class Workspace;

template <typename T>
void top_k_v0(const T* in, std::size_t n, std::size_t k, T* values, std::size_t* indices,
              Workspace<T>& ws);

// ---- v1 and v2: an O(k) merge; the lists in dynamic shared memory -------------------------------

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
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
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
  return seed_limit(n, k, launch);
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

// ---- v3: radix select ---------------------------------------------------------------------------

// Where a select stands after choosing the bucket of a digit: the digits of the k-th largest key
// found so far, and how many keys that match them are still wanted.
struct Choice {
  Key prefix;                    // the digits found so far
  Key mask;                      // the bits they cover
  unsigned long long remaining;  // keys still wanted among those that match the prefix
  unsigned int take_all;         // the whole bucket is wanted: every match is a winner
};

// What the blocks of one select share, in device memory. Zero before a select, and left zero by
// it.
struct SelectState {
  unsigned long long histogram[kDigits][kMaxBins];  // digit d's, over the keys that match the
                                                    // digits before it
  unsigned long long winners;                       // keys in the winners' buffer
  unsigned long long candidates[2];                 // keys in each candidates' buffer
  unsigned long long taken;  // last digit: keys equal to the k-th one taken so far
};
static_assert(sizeof(SelectState) % sizeof(unsigned long long) == 0, "zeroed in 8-byte words");

constexpr int kSelectThreads = 512;  // a multiple of 32 that divides every digit's bins
constexpr int kCountBatch = 4;       // pass 1: 16-byte loads per thread at a time
constexpr int kSiftBatch = 2;        // pass 2: fewer, for the registers its votes need
// Past pass 2, every block counts the last two digits of the candidates itself when there are at
// most this many (on the seed's input, about n / 2048 are); more, and the blocks share the work.
constexpr std::size_t kFewCandidates = 16384;
// The winners are sorted in the kernel up to this many (their keys staged in shared memory);
// past it, CUB sorts them.
constexpr std::size_t kRankSortMaxK = 4096;

// The exclusive prefix sum of v over the block's threads, in thread order. Every thread of the
// block must call it; blockDim.x a multiple of 32.
__device__ inline unsigned long long block_exclusive_sum(unsigned long long v) {
  __shared__ unsigned long long warp_totals[course::kWarpSize];
  const unsigned lane = threadIdx.x % course::kWarpSize;
  const unsigned warp = threadIdx.x / course::kWarpSize;
  unsigned long long inclusive = v;
#pragma unroll
  for (int offset = 1; offset < course::kWarpSize; offset *= 2) {
    const unsigned long long below = __shfl_up_sync(course::kFullWarp, inclusive, offset);
    if (lane >= static_cast<unsigned>(offset)) inclusive += below;
  }
  if (lane == course::kWarpSize - 1) warp_totals[warp] = inclusive;
  __syncthreads();  // every warp's total is in
  if (warp == 0) {
    unsigned long long total = lane < blockDim.x / course::kWarpSize ? warp_totals[lane] : 0;
#pragma unroll
    for (int offset = 1; offset < course::kWarpSize; offset *= 2) {
      const unsigned long long below = __shfl_up_sync(course::kFullWarp, total, offset);
      if (lane >= static_cast<unsigned>(offset)) total += below;
    }
    warp_totals[lane] = total;  // now: the sum of warps 0 to lane
  }
  __syncthreads();  // the warps' running totals are in
  const unsigned long long before = warp == 0 ? 0 : warp_totals[warp - 1];
  const unsigned long long result = before + inclusive - v;
  __syncthreads();  // read before a second call overwrites warp_totals
  return result;
}

// The choice of bucket: the bin of `digit`, counted from the top of a finished histogram (count(b)
// is bin b's count), that holds the remaining-th largest key. Each thread adds up a run of bins, a
// prefix sum over the threads says how many keys lie above each run, and the one thread whose run
// holds the place walks its bins. Every block makes the same choice for itself, rather than one
// block for all: then no block waits for another. Every thread of the block calls it and gets the
// answer.
template <typename Count>
__device__ Choice choose_bucket_in_block(Count count, Digit digit, const Choice& before) {
  constexpr unsigned kMostPerThread = kMaxBins / kSelectThreads;
  __shared__ Choice chosen;
  if (before.take_all) return before;  // nothing is left to choose
  const unsigned per_thread = digit.bins() / blockDim.x;
  const unsigned top = digit.bins() - threadIdx.x * per_thread;  // this thread's bins: below top
  unsigned long long here[kMostPerThread];
  unsigned long long run = 0;
#pragma unroll
  for (unsigned j = 0; j < kMostPerThread; ++j) {  // here[j]: bin top - 1 - j, the highest first
    here[j] = j < per_thread ? count(top - 1 - j) : 0;
    run += here[j];
  }
  unsigned long long above = block_exclusive_sum(run);
  if (above < before.remaining && before.remaining <= above + run) {
#pragma unroll
    for (unsigned j = 0; j < kMostPerThread; ++j) {
      if (j < per_thread && above < before.remaining && above + here[j] >= before.remaining) {
        const Key bin = top - 1 - j;
        chosen = {before.prefix | bin << digit.shift, before.mask | digit.mask(),
                  before.remaining - above, before.remaining - above == here[j]};
      }
      above += here[j];
    }
  }
  __syncthreads();  // the choice is made
  return chosen;
}

// Adds a block's bins to a global histogram (only the bins it saw).
__device__ inline void merge_bins(const unsigned* bins, unsigned count,
                                  unsigned long long* histogram) {
  __syncthreads();  // every thread has counted
  for (unsigned b = threadIdx.x; b < count; b += blockDim.x) {
    if (bins[b] != 0) atomicAdd(&histogram[b], static_cast<unsigned long long>(bins[b]));
  }
}

__device__ inline void zero_bins(unsigned* bins) {
  __syncthreads();  // nobody still reads them
  for (unsigned b = threadIdx.x; b < kMaxBins; b += blockDim.x)
    bins[b] = 0;
  __syncthreads();  // zeroed before counting
}

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
  const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
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

// Appends (key, index) for the lanes where `take` holds to keys[] and indices[] at *count, with one
// atomic per warp: the lowest taking lane reserves room for all of them, and each writes at its
// rank among them. Every lane of the warp must call it.
__device__ inline void warp_append(bool take, Key key, std::size_t index, Key* keys,
                                   std::size_t* indices, unsigned long long* count) {
  const unsigned takers = __ballot_sync(course::kFullWarp, take);
  if (takers == 0) return;
  const unsigned lane = threadIdx.x % course::kWarpSize;
  const int leader = __ffs(static_cast<int>(takers)) - 1;
  unsigned long long base = 0;
  if (lane == static_cast<unsigned>(leader)) base = atomicAdd(count, __popc(takers));
  base = __shfl_sync(course::kFullWarp, base, leader);
  if (take) {
    const unsigned long long at = base + __popc(takers & ((1u << lane) - 1u));
    keys[at] = key;
    indices[at] = index;
  }
}

// A block's staging area for what a sift keeps: appends reserve their places with an atomic on a
// shared counter, and the block publishes them together at the end, with one global atomic,
// where each warp would otherwise wait its turn at the one global counter in L2. What does not
// fit goes straight to the global list, so any number of keys works.
template <unsigned kCapacity>
struct Stage {
  unsigned count;  // places reserved; past kCapacity, the rest went straight to the global list
  Key keys[kCapacity];
  std::size_t indices[kCapacity];
};
constexpr unsigned kStagedWinners = 256;
constexpr unsigned kStagedCandidates = 1024;

// Appends (key, index) for the lanes where `take` holds: into the block's stage while it has
// room, the rest to the global list. Every lane of the warp must call it.
template <unsigned kCapacity>
__device__ void stage_append(bool take, Key key, std::size_t index, Stage<kCapacity>* stage,
                             Key* keys, std::size_t* indices, unsigned long long* count) {
  const unsigned takers = __ballot_sync(course::kFullWarp, take);
  if (takers == 0) return;
  const unsigned lane = threadIdx.x % course::kWarpSize;
  const int leader = __ffs(static_cast<int>(takers)) - 1;
  unsigned base = 0;
  if (lane == static_cast<unsigned>(leader)) base = atomicAdd(&stage->count, __popc(takers));
  base = __shfl_sync(course::kFullWarp, base, leader);
  const unsigned at = base + __popc(takers & ((1u << lane) - 1u));
  const bool staged = take && at < kCapacity;
  if (staged) {
    stage->keys[at] = key;
    stage->indices[at] = index;
  }
  warp_append(take && !staged, key, index, keys, indices, count);
}

// Publishes the block's stage to the global list. Every thread of the block must call it.
template <unsigned kCapacity>
__device__ void publish_stage(Stage<kCapacity>* stage, Key* keys, std::size_t* indices,
                              unsigned long long* count) {
  __shared__ unsigned long long base;
  __syncthreads();  // every append is in
  const unsigned staged = stage->count < kCapacity ? stage->count : kCapacity;
  if (threadIdx.x == 0 && staged > 0) base = atomicAdd(count, staged);
  __syncthreads();  // the block's place in the list is known
  for (unsigned i = threadIdx.x; i < staged; i += blockDim.x) {
    keys[base + i] = stage->keys[i];
    indices[base + i] = stage->indices[i];
  }
}

// What a sift keeps, and where: the same for every thread of a block, so the block keeps one
// copy, in shared memory.
struct Sift {
  Choice choice;  // the digits chosen so far
  bool last;      // every digit is chosen: a match is the k-th largest key itself
  Digit next;     // the next digit, counted for the candidates
  SelectState* s;
  Key* winner_keys;
  std::size_t* winner_indices;
  Key* candidate_keys;  // where the candidates go (none when `last`)
  std::size_t* candidate_indices;
  unsigned long long* candidates;  // their count
  unsigned* bins;                  // the block's histogram of the next digit
  Stage<kStagedWinners>* winner_stage;
  Stage<kStagedCandidates>* candidate_stage;
};

// One key the warp's vote found wanted (at or above the prefix): above it, a winner; matching
// it, a candidate for the next digit, or, when every digit is chosen, equal to the k-th largest
// key, and taken while fewer than `remaining` are. Every lane of the warp must call it (valid =
// false: no key). Out of line: inlined at each of its calls, it would not fit in the instruction
// cache.
__device__ __noinline__ void keep(const Sift* sift, Key key, std::size_t index, bool valid) {
  const Choice& choice = sift->choice;
  const Key top = key & choice.mask;
  const bool match = valid && top == choice.prefix;
  bool win = (valid && top > choice.prefix) || (match && choice.take_all);
  const bool equal = match && !choice.take_all && sift->last;
  const unsigned equals = __ballot_sync(course::kFullWarp, equal);
  if (equals != 0) {  // the k-th largest key itself: take the first `remaining` that come
    const unsigned lane = threadIdx.x % course::kWarpSize;
    const int leader = __ffs(static_cast<int>(equals)) - 1;
    unsigned long long base = 0;
    if (lane == static_cast<unsigned>(leader)) base = atomicAdd(&sift->s->taken, __popc(equals));
    base = __shfl_sync(course::kFullWarp, base, leader);
    win = win || (equal && base + __popc(equals & ((1u << lane) - 1u)) < choice.remaining);
  }
  stage_append(win, key, index, sift->winner_stage, sift->winner_keys, sift->winner_indices,
               &sift->s->winners);
  const bool candidate = match && !choice.take_all && !sift->last;
  if (candidate) atomicAdd(&sift->bins[sift->next.of(key)], 1u);
  stage_append(candidate, key, index, sift->candidate_stage, sift->candidate_keys,
               sift->candidate_indices, sift->candidates);
}

// The hot path of a sift: few keys are wanted, so the warp votes first, and only a warp with a
// wanted key calls keep().
struct Sifter {
  const Sift* sift;
  Key mask;  // the choice's, in registers
  Key prefix;

  __device__ bool wanted(Key key) const { return (key & mask) >= prefix; }
  __device__ void operator()(Key key, std::size_t index, bool valid) const {
    if (__any_sync(course::kFullWarp, valid && wanted(key))) keep(sift, key, index, valid);
  }
};

// Every buffer of a select.
struct SelectBuffers {
  Key* winner_keys;
  std::size_t* winner_indices;
  Key* candidate_keys[2];
  std::size_t* candidate_indices[2];
};

// The block's shared memory for a sift.
struct SiftSpace {
  Sift sift;
  Stage<kStagedWinners> winners;
  Stage<kStagedCandidates> candidates;
};

// Sets the block's sift for keys measured against `choice` (`round`: the digit chosen last;
// candidates go to buffer round % 2 and are counted by the next digit), and returns its hot path.
__device__ inline Sifter start_sift(SiftSpace* space, const Choice& choice, int round,
                                    SelectState* s, const SelectBuffers& b, unsigned* bins) {
  zero_bins(bins);
  const bool last = round + 1 == kDigits || choice.take_all;
  if (threadIdx.x == 0) {
    space->sift = {choice,
                   last,
                   digit_plan(last ? round : round + 1),
                   s,
                   b.winner_keys,
                   b.winner_indices,
                   b.candidate_keys[round % 2],
                   b.candidate_indices[round % 2],
                   &s->candidates[round % 2],
                   bins,
                   &space->winners,
                   &space->candidates};
    space->winners.count = 0;
    space->candidates.count = 0;
  }
  __syncthreads();  // the block's sift is set
  return {&space->sift, choice.mask, choice.prefix};
}

// The end of a sift: the block publishes what it staged, and adds its histogram of the next digit
// to the global one (histogram: nullptr when nobody needs it). Every thread of the block.
__device__ inline void end_sift(SiftSpace* space, unsigned long long* histogram) {
  const Sift& sift = space->sift;
  publish_stage(&space->winners, sift.winner_keys, sift.winner_indices, &sift.s->winners);
  if (sift.last) return;
  publish_stage(&space->candidates, sift.candidate_keys, sift.candidate_indices, sift.candidates);
  if (histogram != nullptr) merge_bins(sift.bins, sift.next.bins(), histogram);
}

// Sifts this block's share of a list of `count` keys (and their indices), a warp at a time.
__device__ inline void sift_list(const Sifter& sifter, const Key* keys, const std::size_t* indices,
                                 unsigned long long count) {
  const std::size_t lane = threadIdx.x % course::kWarpSize;
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x - lane;
       first < count; first += threads) {
    const std::size_t i = first + lane;
    const bool valid = i < count;
    // From L2: other blocks wrote the list in this kernel.
    sifter(valid ? __ldcg(&keys[i]) : 0, valid ? __ldcg(&indices[i]) : 0, valid);
  }
}

// Calls f(i, key) for i = threadIdx.x, + blockDim.x, ... below count: every block over the whole
// list. The keys are read from L2 (other blocks wrote them in this kernel), 8 per thread at a
// time: one at a time, each would wait its own round trip.
template <typename F>
__device__ void for_each_key_in_block(const Key* keys, unsigned long long count, F&& f) {
  constexpr unsigned kAtOnce = 8;
  for (unsigned long long first = threadIdx.x; first < count; first += kAtOnce * blockDim.x) {
    Key batch[kAtOnce];
#pragma unroll
    for (unsigned u = 0; u < kAtOnce; ++u) {
      const unsigned long long i = first + u * blockDim.x;
      batch[u] = i < count ? __ldcg(&keys[i]) : 0;
    }
#pragma unroll
    for (unsigned u = 0; u < kAtOnce; ++u) {
      const unsigned long long i = first + u * blockDim.x;
      if (i < count) f(i, batch[u]);
    }
  }
}

// The survivors, sorted: each of the k winners counts the winners that come before it (a larger
// key, or the same key earlier in the buffer), and that count is its place. O(k^2) comparisons,
// but every one independent. A block stages the k keys in shared memory, then ranks 32 winners
// at a time, one per lane, its warps sharing out the comparisons.
__device__ inline unsigned long long rank_key(Key key, std::size_t j) {
  return (static_cast<unsigned long long>(key) << 32) | (0xFFFFFFFFu - static_cast<unsigned>(j));
}

template <typename T>
__device__ void rank_winners(const Key* keys, const std::size_t* indices, unsigned k, T* values,
                             std::size_t* out_indices) {
  __shared__ Key staged[kRankSortMaxK];
  __shared__ unsigned ranks[course::kWarpSize];
  constexpr unsigned kWarps = kSelectThreads / course::kWarpSize;
  const unsigned lane = threadIdx.x % course::kWarpSize;
  const unsigned warp = threadIdx.x / course::kWarpSize;
  for_each_key_in_block(keys, k, [&](unsigned long long j, Key key) { staged[j] = key; });
  for (unsigned first = blockIdx.x * course::kWarpSize; first < k;
       first += gridDim.x * course::kWarpSize) {
    if (warp == 0) ranks[lane] = 0;
    __syncthreads();  // the keys are staged and the counts zeroed
    const unsigned i = first + lane;
    const unsigned long long mine = i < k ? rank_key(staged[i], i) : ~0ull;
    unsigned before = 0;
    for (unsigned j = warp; j < k; j += kWarps)
      before += rank_key(staged[j], j) > mine;  // one address for the whole warp: a broadcast
    atomicAdd(&ranks[lane], before);
    __syncthreads();  // every warp's count is in
    if (warp == 0 && i < k) {
      values[ranks[lane]] = course::from_order_key<T>(staged[i]);
      out_indices[ranks[lane]] = __ldcg(&indices[i]);
    }
  }
}

// v3 radix select (v2: per-thread lists): a key's 32 bits read as three digits of 11, 11 and 10
// bits, from the top. Count the keys by their top digit; the bin that holds the k-th largest key
// is its top digit, every key in a bin above it is a winner, and the keys in that bin are the
// candidates; count those by the next digit, and so on. Then the k winners are sorted. One
// cooperative launch: all its blocks are resident at once, so a grid barrier (grid.sync()) can
// stand between two passes where a kernel boundary would: no launch, and no pass waits to start.
template <typename T>
__global__ void __launch_bounds__(kSelectThreads, 1)
    radix_select_kernel(const T* in, std::size_t n, std::size_t k, SelectState* s,
                        SelectBuffers buffers, bool rank_here, T* values, std::size_t* indices) {
  const cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  __shared__ unsigned bins[kMaxBins];
  __shared__ SiftSpace space;
  const auto global = [](const unsigned long long* histogram) {
    return [histogram](unsigned b) { return __ldcg(&histogram[b]); };  // from L2: every block's
  };

  // Pass 1: the histogram of the top digit, over every key.
  const Digit top = digit_plan(0);
  zero_bins(bins);
  for_each_element<false, kCountBatch>(
      in, n, [&](T x, std::size_t, bool) { atomicAdd(&bins[top.of(course::order_key(x))], 1u); },
      Always{});
  merge_bins(bins, top.bins(), s->histogram[0]);
  grid.sync();  // the histogram is complete

  // Pass 2: every key against the top digit's bucket; a warp skips a batch in which no key
  // reaches it. The candidates are counted by the next digit.
  const Choice first = choose_bucket_in_block(global(s->histogram[0]), top, Choice{0, 0, k, 0});
  const Sifter sifter = start_sift(&space, first, 0, s, buffers, bins);
  for_each_element<true, kSiftBatch>(
      in, n, [&](T x, std::size_t i, bool valid) { sifter(course::order_key(x), i, valid); },
      [&](T x, std::size_t) { return sifter.wanted(course::order_key(x)); });
  end_sift(&space, s->histogram[1]);
  grid.sync();  // every winner and candidate of pass 2 is in

  // The last two digits, among the candidates.
  const Choice second = choose_bucket_in_block(global(s->histogram[1]), digit_plan(1), first);
  const unsigned long long count = __ldcg(&s->candidates[0]);
  Choice third;
  const Key* list_keys = buffers.candidate_keys[0];
  const std::size_t* list_indices = buffers.candidate_indices[0];
  unsigned long long list_count = count;
  if (count <= kFewCandidates) {
    // Few: each block counts the last digit over all of them itself, so no block waits.
    zero_bins(bins);
    const Digit last = digit_plan(2);
    if (!second.take_all) {
      for_each_key_in_block(list_keys, count, [&](unsigned long long, Key key) {
        if ((key & second.mask) == second.prefix) atomicAdd(&bins[last.of(key)], 1u);
      });
    }
    __syncthreads();  // counted
    third = choose_bucket_in_block([&](unsigned b) { return bins[b]; }, last, second);
  } else {
    // Many: the blocks share them out, and count the last digit together.
    sift_list(start_sift(&space, second, 1, s, buffers, bins), list_keys, list_indices, count);
    end_sift(&space, s->histogram[2]);
    grid.sync();  // every candidate of this round is in
    third = choose_bucket_in_block(global(s->histogram[2]), digit_plan(2), second);
    list_keys = buffers.candidate_keys[1];
    list_indices = buffers.candidate_indices[1];
    list_count = __ldcg(&s->candidates[1]);
  }
  // Every digit chosen: the last candidates are winners, or equal to the k-th largest key.
  sift_list(start_sift(&space, third, kDigits - 1, s, buffers, bins), list_keys, list_indices,
            list_count);
  end_sift(&space, nullptr);
  grid.sync();  // every winner is in, and nobody reads the state any more
  // The state back to zero for the next select (cheaper here than a memset before it).
  auto* words = reinterpret_cast<unsigned long long*>(s);
  constexpr std::size_t kWords = sizeof(SelectState) / sizeof(unsigned long long);
  for (std::size_t w = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; w < kWords;
       w += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    words[w] = 0;
  }
  if (rank_here) {
    rank_winners(buffers.winner_keys, buffers.winner_indices, static_cast<unsigned>(k), values,
                 indices);
  }
}

template <typename T>
__global__ void keys_to_values_kernel(const Key* keys, const std::size_t* indices, std::size_t k,
                                      T* values, std::size_t* out_indices) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; j < k;
       j += stride) {
    values[j] = course::from_order_key<T>(keys[j]);
    out_indices[j] = indices[j];
  }
}

inline std::string v3_limit(std::size_t, std::size_t k, const Launch&) {
  // Past kRankSortMaxK, CUB sorts the winners, and its item count is an int.
  return k <= INT_MAX ? "" : "CUB sorts the winners: k < 2^31";
}

template <typename T>
void top_k_v3(const T* in, std::size_t n, std::size_t k, T* values, std::size_t* indices,
              Workspace<T>& ws);

// ---- v4: a warp's top 32 in registers -----------------------------------------------------------

constexpr int kWarpSelectThreads = 512;
constexpr std::size_t kWarpSelectMaxK = 32;

// A key and its index in one 64-bit word that orders them: a larger key first, and for equal keys
// the smaller index. 0 is below every real element (v4 takes n < 2^32).
__device__ inline unsigned long long score_of(Key key, std::size_t index) {
  return (static_cast<unsigned long long>(key) << 32) |
         (0xFFFFFFFFu - static_cast<unsigned>(index));
}

// The 32 lanes' values in descending order (lane 0 the largest): a bitonic sort over shuffles.
// Stage `size` sorts runs of size lanes, alternately down and up, so that each pair of runs is
// bitonic for the next stage; the last stage sorts all 32 downwards.
__device__ inline unsigned long long warp_sort_descending(unsigned long long v) {
  const unsigned lane = threadIdx.x % course::kWarpSize;
#pragma unroll
  for (unsigned size = 2; size <= course::kWarpSize; size *= 2) {
#pragma unroll
    for (unsigned stride = size / 2; stride > 0; stride /= 2) {
      const unsigned long long other = __shfl_xor_sync(course::kFullWarp, v, stride);
      const bool keep_larger = ((lane & stride) == 0) == ((lane & size) == 0);
      v = keep_larger ? (v > other ? v : other) : (v < other ? v : other);
    }
  }
  return v;
}

// The 32 largest of two descending lists of 32, descending. The larger of list[i] and
// batch[31 - i] is the top 32 of both, as a bitonic sequence; five half-cleaners sort it.
__device__ inline unsigned long long warp_merge(unsigned long long list, unsigned long long batch) {
  const unsigned lane = threadIdx.x % course::kWarpSize;
  const unsigned long long mirror = __shfl_sync(course::kFullWarp, batch, 31 - lane);
  unsigned long long v = list > mirror ? list : mirror;
#pragma unroll
  for (unsigned stride = course::kWarpSize / 2; stride > 0; stride /= 2) {
    const unsigned long long other = __shfl_xor_sync(course::kFullWarp, v, stride);
    v = (lane & stride) == 0 ? (v > other ? v : other) : (v < other ? v : other);
  }
  return v;
}

// A warp's list merged with its lanes' queues: the new list, and its k-th score. Out of line,
// with its arguments and results in registers: inlined at each of its calls, the sort and the
// merge would not fit in the instruction cache.
struct Merged {
  unsigned long long best;
  unsigned long long threshold;
};

__device__ __noinline__ Merged merge_queues(unsigned long long best, unsigned long long queued,
                                            int k) {
  best = warp_merge(best, warp_sort_descending(queued));
  return {best, __shfl_sync(course::kFullWarp, best, k - 1)};
}

// A warp's running top 32, one score per lane. An element that beats the k-th best waits in its
// lane's queue; when a lane whose queue is full gets another, the warp sorts the queues and merges
// them in, so a merge takes many elements once the threshold is high.
struct WarpTop {
  int k;
  unsigned long long best = 0;       // lane i: the (i + 1)-th largest score so far
  unsigned long long queued = 0;     // 0: this lane's queue is empty
  unsigned long long threshold = 0;  // the k-th largest score so far

  __device__ void flush() {
    const Merged merged = merge_queues(best, queued, k);
    best = merged.best;
    threshold = merged.threshold;
    queued = 0;
  }
  // Every lane of the warp must call it (score 0: no element).
  __device__ void offer(unsigned long long score) {
    if (__any_sync(course::kFullWarp, score > threshold && queued != 0)) flush();
    if (score > threshold) queued = score;
  }
};

// v4 a warp's top 32 in registers, for k <= 32: each warp streams its share of the input and
// keeps its 32 best in its lanes, merged by bitonic steps over shuffles (v3: passes over memory);
// the warps of a block merge their lists, and the last block merges the blocks'. One launch.
template <typename T>
__global__ void __launch_bounds__(kWarpSelectThreads, 1)
    warp_top_k_kernel(const T* in, std::size_t n, int k, unsigned long long* block_lists,
                      unsigned int* finished, T* values, std::size_t* indices) {
  constexpr int kWarps = kWarpSelectThreads / course::kWarpSize;
  __shared__ unsigned long long lists[kWarps][course::kWarpSize];
  const unsigned lane = threadIdx.x % course::kWarpSize;
  const unsigned warp = threadIdx.x / course::kWarpSize;
  WarpTop top{k};
  // The threshold only rises: a batch in which nothing beats it now is skipped whole.
  for_each_element<true, kSiftBatch>(
      in, n,
      [&](T x, std::size_t i, bool valid) {
        top.offer(valid ? score_of(course::order_key(x), i) : 0);
      },
      [&](T x, std::size_t i) { return score_of(course::order_key(x), i) > top.threshold; });
  if (__any_sync(course::kFullWarp, top.queued != 0)) top.flush();
  // The block's warps, merged by warp 0; then the grid's blocks, by the last block's warps.
  lists[warp][lane] = top.best;
  __syncthreads();  // every warp's list is in
  if (warp == 0) {
    unsigned long long best = top.best;
    for (int w = 1; w < kWarps; ++w)
      best = warp_merge(best, lists[w][lane]);
    block_lists[blockIdx.x * course::kWarpSize + lane] = best;
  }
  if (!course::last_block_done(finished)) return;
  unsigned long long best = 0;
  for (unsigned b = warp; b < gridDim.x; b += kWarps)
    best = warp_merge(best, __ldcg(&block_lists[b * course::kWarpSize + lane]));
  lists[warp][lane] = best;
  __syncthreads();  // every warp's share of the blocks is merged
  if (warp == 0) {
    for (int w = 1; w < kWarps; ++w)
      best = warp_merge(best, lists[w][lane]);
    if (lane < static_cast<unsigned>(k)) {
      values[lane] = course::from_order_key<T>(static_cast<Key>(best >> 32));
      indices[lane] = 0xFFFFFFFFu - static_cast<unsigned>(best & 0xFFFFFFFFu);
    }
  }
}

inline std::string v4_limit(std::size_t n, std::size_t k, const Launch&) {
  if (k > kWarpSelectMaxK) return "a warp's 32 lanes hold k <= 32";
  return n < 0xFFFFFFFFull ? "" : "the index shares a 64-bit word with the key: n < 2^32 - 1";
}

template <typename T>
void top_k_v4(const T* in, std::size_t n, std::size_t k, T* values, std::size_t* indices,
              Workspace<T>& ws);

// ---- the workspace: what the versions need besides their input and output ---------------------

// Allocated once for a given n, k and launch, outside the timed runs (as CUB's scratch is).
template <typename T>
class Workspace {
 public:
  Workspace(std::size_t n, std::size_t k, const Launch& launch_)
      : launch(launch_),
        seed_lists(v0_blocks(n, launch_) * k),
        block_lists(static_cast<std::size_t>(merge_blocks(launch_)) * k),
        state(1),
        winner_keys(k),
        winner_indices(k),
        select_grid(course::sm_count()),
        warp_grid(course::sm_count()),
        warp_lists(static_cast<std::size_t>(warp_grid) * course::kWarpSize),
        finished(1) {
    for (int b = 0; b < 2; ++b) {
      candidate_keys[b] = course::DeviceBuffer<Key>(n);
      candidate_indices[b] = course::DeviceBuffer<std::size_t>(n);
    }
    finished.fill_bytes(0);
    state.fill_bytes(0);  // v3 leaves it zero after every select
    if (k <= INT_MAX) {   // v3's survivors, when CUB sorts them
      sorted_keys = course::DeviceBuffer<Key>(k);
      sorted_indices = course::DeviceBuffer<std::size_t>(k);
      std::size_t bytes = 0;
      CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(
          nullptr, bytes, winner_keys.data(), sorted_keys.data(), winner_indices.data(),
          sorted_indices.data(), static_cast<int>(k)));
      sort_scratch = course::DeviceBuffer<unsigned char>(bytes > 0 ? bytes : 1);
    }
  }

  Launch launch;
  ManagedBuffer<T> seed_lists;              // v0: the blocks' lists, as the seed's __managed__
                                            // (grown by a launch with more blocks)
  course::DeviceBuffer<T> block_lists;      // v1, v2: the blocks' lists
  course::DeviceBuffer<SelectState> state;  // v3
  course::DeviceBuffer<Key> candidate_keys[2];
  course::DeviceBuffer<std::size_t> candidate_indices[2];
  course::DeviceBuffer<Key> winner_keys;
  course::DeviceBuffer<std::size_t> winner_indices;
  course::DeviceBuffer<Key> sorted_keys;  // v3 past kRankSortMaxK: CUB's output, and scratch
  course::DeviceBuffer<std::size_t> sorted_indices;
  course::DeviceBuffer<unsigned char> sort_scratch;
  int select_grid;  // v3: one block per SM, all resident at once
  int warp_grid;    // v4: one block per SM
  course::DeviceBuffer<unsigned long long> warp_lists;  // v4: the blocks' lists
  course::DeviceBuffer<unsigned int> finished;          // v4: blocks done
};

// ---- the host functions -------------------------------------------------------------------------

// v0: the seed's two launches, the first on v0_blocks (the seed's grid unless ws.launch.blocks
// says otherwise).
template <typename T>
void top_k_v0(const T* in, std::size_t n, std::size_t k, T* values, std::size_t*,
              Workspace<T>& ws) {
  const Launch& launch = ws.launch;
  const std::string why = seed_limit(n, k, launch);
  if (!why.empty()) throw std::invalid_argument("v0: " + why);
  const std::size_t blocks = v0_blocks(n, launch);
  if (blocks > static_cast<std::size_t>(INT_MAX)) {
    throw std::invalid_argument("v0: more than 2^31 - 1 blocks");
  }
  ws.seed_lists.reserve(blocks * k);
  with_list_length(k, [&](auto length) {
    constexpr int K = decltype(length)::value;
    seed_kernel<T, K><<<static_cast<unsigned>(blocks), launch.threads, 0, launch.stream>>>(
        in, n, static_cast<int>(k), ws.seed_lists.data());
    CUDA_CHECK_LAUNCH();
    seed_kernel<T, K><<<1, launch.threads, 0, launch.stream>>>(ws.seed_lists.data(), blocks * k,
                                                               static_cast<int>(k), values);
    CUDA_CHECK_LAUNCH();
  });
}

template <typename T>
void top_k_v1(const T* in, std::size_t n, std::size_t k, T* values, std::size_t*,
              Workspace<T>& ws) {
  const std::string why = v1_limit(n, k, ws.launch);
  if (!why.empty()) throw std::invalid_argument("v1: " + why);
  if (ws.block_lists.size() < static_cast<std::size_t>(merge_blocks(ws.launch)) * k) {
    throw std::invalid_argument("v1: the workspace was made for fewer blocks or a smaller k");
  }
  merge_two_launches<T, false>(in, n, k, values, ws.block_lists.data(), ws.launch);
}

template <typename T>
void top_k_v2(const T* in, std::size_t n, std::size_t k, T* values, std::size_t*,
              Workspace<T>& ws) {
  const std::string why = v2_limit(n, k, ws.launch);
  if (!why.empty()) throw std::invalid_argument("v2: " + why);
  if (ws.block_lists.size() < static_cast<std::size_t>(merge_blocks(ws.launch)) * k) {
    throw std::invalid_argument("v2: the workspace was made for fewer blocks or a smaller k");
  }
  merge_two_launches<T, true>(in, n, k, values, ws.block_lists.data(), ws.launch);
}

// How v3 sorts its k winners: in the kernel, by rank, up to kRankSortMaxK, else with CUB; or with
// CUB at any k (the --k-sweep compares the two).
enum class SurvivorSort { automatic, cub };

template <typename T>
void top_k_radix_select(const T* in, std::size_t n, std::size_t k, T* values, std::size_t* indices,
                        Workspace<T>& ws, SurvivorSort how = SurvivorSort::automatic) {
  if (k == 0 || k > n) throw std::invalid_argument("v3: k must be from 1 to n");
  const cudaStream_t stream = ws.launch.stream;
  SelectState* s = ws.state.data();  // zero: the workspace starts so, and every select ends so
  SelectBuffers buffers{ws.winner_keys.data(),
                        ws.winner_indices.data(),
                        {ws.candidate_keys[0].data(), ws.candidate_keys[1].data()},
                        {ws.candidate_indices[0].data(), ws.candidate_indices[1].data()}};
  bool rank_here = k <= kRankSortMaxK && how != SurvivorSort::cub;
  // A cooperative launch: it fails, rather than hangs, if the grid cannot all be resident.
  void* args[] = {&in, &n, &k, &s, &buffers, &rank_here, &values, &indices};
  CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(radix_select_kernel<T>),
                                         ws.select_grid, kSelectThreads, args, 0, stream));
  if (rank_here) return;
  if (ws.sorted_keys.size() < k) throw std::invalid_argument("v3: no CUB scratch for this k");
  std::size_t bytes = ws.sort_scratch.size();
  CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(
      ws.sort_scratch.data(), bytes, ws.winner_keys.data(), ws.sorted_keys.data(),
      ws.winner_indices.data(), ws.sorted_indices.data(), static_cast<int>(k), 0, 32, stream));
  keys_to_values_kernel<T><<<course::sm_count() * 4, 256, 0, stream>>>(
      ws.sorted_keys.data(), ws.sorted_indices.data(), k, values, indices);
  CUDA_CHECK_LAUNCH();
}

template <typename T>
void top_k_v3(const T* in, std::size_t n, std::size_t k, T* values, std::size_t* indices,
              Workspace<T>& ws) {
  top_k_radix_select(in, n, k, values, indices, ws);
}

template <typename T>
void top_k_v4(const T* in, std::size_t n, std::size_t k, T* values, std::size_t* indices,
              Workspace<T>& ws) {
  const std::string why = v4_limit(n, k, ws.launch);
  if (!why.empty() || k == 0 || k > n) {
    throw std::invalid_argument("v4: " + (why.empty() ? std::string("k from 1 to n") : why));
  }
  warp_top_k_kernel<T><<<ws.warp_grid, kWarpSelectThreads, 0, ws.launch.stream>>>(
      in, n, static_cast<int>(k), ws.warp_lists.data(), ws.finished.data(), values, indices);
  CUDA_CHECK_LAUNCH();
}

// ---- the versions, in order ---------------------------------------------------------------------

template <typename T>
struct Version {
  const char* name;
  const char* idea;
  bool distinct;  // the k largest distinct values (the seed's meaning)
  bool indices;   // returns the index of each value
  // "" when the version takes n and k (with these launch settings); otherwise why not.
  std::string (*limit)(std::size_t n, std::size_t k, const Launch& launch);
  void (*run)(const T* in, std::size_t n, std::size_t k, T* values, std::size_t* indices,
              Workspace<T>& ws);
};

template <typename T>
const std::vector<Version<T>>& versions() {
  static const std::vector<Version<T>> all = {
      {"v0", "seed: a thread per value, insertion lists, O(k^2) merges, distinct", true, false,
       seed_limit, top_k_v0<T>},
      {"v1", "32 blocks, O(k) two-pointer merge, duplicates kept", false, false, v1_limit,
       top_k_v1<T>},
      {"v2", "lists in dynamic shared memory, opt-in past 48 KiB", false, false, v2_limit,
       top_k_v2<T>},
      {"v3", "radix select: 3 digits, then sort the k", false, true, v3_limit, top_k_v3<T>},
      {"v4", "k <= 32: a warp's top 32 in registers, 1 pass", false, true, v4_limit, top_k_v4<T>},
  };
  return all;
}

// ---- the libraries ------------------------------------------------------------------------------

// The libraries take n below 2^31 here (CUB's item count is an int).
constexpr std::size_t kLibraryMaxN = INT_MAX;

// cub::DeviceRadixSort::SortPairsDescending of every (value, index) pair, then the first k: what a
// user without a top-k would write. The indices 0..n-1 are made once, and the scratch kept.
template <typename T>
class CubTopK {
 public:
  explicit CubTopK(std::size_t n) : n_(n), sorted_(n), iota_(n), sorted_indices_(n) {
    thrust::sequence(thrust::device, iota_.data(), iota_.data() + n);
    std::size_t bytes = 0;
    CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(
        nullptr, bytes, static_cast<const T*>(nullptr), sorted_.data(), iota_.data(),
        sorted_indices_.data(), static_cast<int>(n)));
    temp_ = course::DeviceBuffer<unsigned char>(bytes > 0 ? bytes : 1);
  }
  void operator()(const T* in, std::size_t k, T* values, std::size_t* indices,
                  cudaStream_t stream = nullptr) {
    std::size_t bytes = temp_.size();
    CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(temp_.data(), bytes, in, sorted_.data(),
                                                         iota_.data(), sorted_indices_.data(),
                                                         static_cast<int>(n_), 0, 32, stream));
    CUDA_CHECK(
        cudaMemcpyAsync(values, sorted_.data(), k * sizeof(T), cudaMemcpyDeviceToDevice, stream));
    CUDA_CHECK(cudaMemcpyAsync(indices, sorted_indices_.data(), k * sizeof(std::size_t),
                               cudaMemcpyDeviceToDevice, stream));
  }
  const std::size_t* iota() const { return iota_.data(); }

 private:
  std::size_t n_;
  course::DeviceBuffer<T> sorted_;
  course::DeviceBuffer<std::size_t> iota_;
  course::DeviceBuffer<std::size_t> sorted_indices_;
  course::DeviceBuffer<unsigned char> temp_;
};

// thrust::sort_by_key with thrust::greater, in place on a copy of the values and of 0..n-1, then
// the first k, as a user calls it (it allocates its scratch on every call).
template <typename T>
void thrust_top_k(T* data, std::size_t* order, std::size_t n, std::size_t k, T* values,
                  std::size_t* indices, cudaStream_t stream = nullptr) {
  thrust::sort_by_key(thrust::cuda::par.on(stream), data, data + n, order, thrust::greater<T>());
  CUDA_CHECK(cudaMemcpyAsync(values, data, k * sizeof(T), cudaMemcpyDeviceToDevice, stream));
  CUDA_CHECK(
      cudaMemcpyAsync(indices, order, k * sizeof(std::size_t), cudaMemcpyDeviceToDevice, stream));
}

}  // namespace lesson06
