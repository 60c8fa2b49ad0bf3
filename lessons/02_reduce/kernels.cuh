// Lesson 02: the sum of n numbers (int or float). One kernel per version, in order, each followed
// by the host function that runs it; read from v0 down. Each version changes one idea.
//
// Every host function sums the n elements at `in` (device memory, any alignment, any n >= 1) and
// writes the one result to `*result` (device memory), enqueuing all its launches on
// launch.stream. v0 to v5 compute one partial sum per block, then run again on those partial
// sums until one is left ("passes"); v6 needs two launches, v7 one.
#pragma once

#include <cub/device/device_reduce.cuh>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "block_reduce.cuh"
#include "check.hpp"
#include "device_memory.hpp"
#include "kind.hpp"
#include "launch.hpp"
#include "vector_loads.cuh"

namespace lesson02 {

constexpr int kThreads = 256;  // the seed's block size, kept by every version (v6's is a template)

// Scratch memory, allocated once for a given n, outside the timed runs (as CUB's temporary
// storage is): two buffers of partial sums that the passes alternate between, and the counter of
// finished blocks that v7 needs, which starts at zero and returns to zero after every launch.
// A buffer holds one partial sum per block: of the first pass (n / 256 blocks at most), or of a
// grid that fills the GPU (v6, v7), whichever is larger.
template <typename T>
class Workspace {
 public:
  explicit Workspace(std::size_t n) : a_(capacity_for(n)), b_(capacity_for(n)), finished_(1) {
    finished_.fill_bytes(0);
  }
  T* partials(int which) { return which == 0 ? a_.data() : b_.data(); }
  std::size_t capacity() const { return a_.size(); }
  unsigned int* finished_blocks() { return finished_.data(); }

 private:
  static std::size_t capacity_for(std::size_t n) {
    const std::size_t resident =
        static_cast<std::size_t>(course::device_attribute(cudaDevAttrMaxBlocksPerMultiprocessor)) *
        course::sm_count();
    const std::size_t first_pass = (n + kThreads - 1) / kThreads;
    return first_pass > resident ? first_pass : resident;
  }

  course::DeviceBuffer<T> a_;
  course::DeviceBuffer<T> b_;
  course::DeviceBuffer<unsigned int> finished_;
};

// How to run a version: on which stream.
struct Launch {
  cudaStream_t stream = nullptr;
};

// How v0 to v5 finish: `kernel` turns `count` values into one partial sum per block of
// `per_block` values; it runs again on its own partial sums, alternating between the two
// workspace buffers, until one value is left, which the last pass writes to `result`.
// ceil(log_256 n) launches: 4 for 2^25 elements.
template <typename T>
void reduce_in_passes(void (*kernel)(const T*, std::size_t, T*), std::size_t per_block, const T* in,
                      std::size_t n, T* result, Workspace<T>& ws, Launch launch) {
  const T* source = in;
  std::size_t count = n;
  int buffer = 0;
  do {
    const std::size_t blocks = (count + per_block - 1) / per_block;
    T* destination = blocks == 1 ? result : ws.partials(buffer);
    kernel<<<static_cast<unsigned>(blocks), kThreads, 0, launch.stream>>>(source, count,
                                                                          destination);
    CUDA_CHECK_LAUNCH();
    source = destination;
    count = blocks;
    buffer ^= 1;
  } while (count > 1);
}

// ---- v0 -----------------------------------------------------------------------------------------

// v0 interleaved addressing (the seed's reduce0): at step s, thread t adds element t + s to
// element t when t is a multiple of 2s. Active threads are scattered over every warp, so the
// warps diverge, and % is a slow instruction. Each block writes its partial sum.
template <typename T>
__global__ void interleaved_kernel(const T* in, std::size_t n, T* out) {
  __shared__ T cache[kThreads];
  const unsigned int tid = threadIdx.x;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + tid;
  cache[tid] = i < n ? in[i] : T(0);  // the seed assumed n % 256 == 0; any n works with this
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) cache[tid] += cache[tid + s];
    __syncthreads();  // this step's sums are in before the next step reads them
  }
  if (tid == 0) out[blockIdx.x] = cache[0];
}

template <typename T>
void reduce_interleaved(const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch) {
  reduce_in_passes(interleaved_kernel<T>, kThreads, in, n, result, ws, launch);
}

// ---- v1 -----------------------------------------------------------------------------------------

// v1 strided index (the seed's reduce1): thread t works on element 2 s t, so the active threads
// are the first ones of the block and whole warps retire together (v0: scattered over all
// warps). But the elements a warp touches are 2s apart: at s = 16, its 32 lanes hit the same
// two shared-memory banks.
template <typename T>
__global__ void strided_index_kernel(const T* in, std::size_t n, T* out) {
  __shared__ T cache[kThreads];
  const unsigned int tid = threadIdx.x;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + tid;
  cache[tid] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    const unsigned int index = 2 * s * tid;
    if (index < blockDim.x) cache[index] += cache[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = cache[0];
}

template <typename T>
void reduce_strided_index(const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch) {
  reduce_in_passes(strided_index_kernel<T>, kThreads, in, n, result, ws, launch);
}

// ---- v2 -----------------------------------------------------------------------------------------

// v2 sequential addressing (the seed's reduce2): at each step the first s threads add the
// element s further on, s = 128, 64, ..., 1. A warp's lanes read 32 consecutive elements, 32
// different banks (v1: 2s apart, the same few banks). kBoundsChecked = false is the seed's load,
// for n a multiple of the block size only: main.cu times both, to show what the check costs.
template <typename T, bool kBoundsChecked = true>
__global__ void sequential_kernel(const T* in, std::size_t n, T* out) {
  __shared__ T cache[kThreads];
  const unsigned int tid = threadIdx.x;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + tid;
  cache[tid] = (!kBoundsChecked || i < n) ? in[i] : T(0);
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = cache[0];
}

template <typename T>
void reduce_sequential(const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch) {
  reduce_in_passes(sequential_kernel<T>, kThreads, in, n, result, ws, launch);
}

// ---- v3 -----------------------------------------------------------------------------------------

// v3 the first add during the load: each thread loads two elements, a block apart, and stores
// their sum, so a block covers 512 elements (v2: half the threads had nothing to do after the
// load). Half the blocks, and half the passes' work.
template <typename T>
__global__ void first_add_kernel(const T* in, std::size_t n, T* out) {
  __shared__ T cache[kThreads];
  const unsigned int tid = threadIdx.x;
  const std::size_t i = blockIdx.x * (2 * static_cast<std::size_t>(blockDim.x)) + tid;
  T sum = i < n ? in[i] : T(0);
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  cache[tid] = sum;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = cache[0];
}

template <typename T>
void reduce_first_add(const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch) {
  reduce_in_passes(first_add_kernel<T>, 2 * kThreads, in, n, result, ws, launch);
}

// ---- v4 -----------------------------------------------------------------------------------------

// v4 the last warp unrolled: once 64 sums are left, one warp finishes alone, with __syncwarp()
// between its steps instead of __syncthreads() (v3: a block-wide barrier for every step). The
// classic version dropped all barriers there and relied on a warp's lanes running in lockstep,
// through a volatile pointer; since Volta they need not, and that code can read a value before
// its lane has written it. __syncwarp() orders the lanes' shared-memory accesses explicitly.
template <typename T>
__global__ void last_warp_kernel(const T* in, std::size_t n, T* out) {
  __shared__ T cache[kThreads];
  const unsigned int tid = threadIdx.x;
  const std::size_t i = blockIdx.x * (2 * static_cast<std::size_t>(blockDim.x)) + tid;
  T sum = i < n ? in[i] : T(0);
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  cache[tid] = sum;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > course::kWarpSize; s >>= 1) {
    if (tid < s) cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if (tid < course::kWarpSize) {
    sum = cache[tid] + cache[tid + course::kWarpSize];
#pragma unroll
    for (int offset = course::kWarpSize / 2; offset > 0; offset /= 2) {
      __syncwarp();  // every lane has read before any lane overwrites
      cache[tid] = sum;
      __syncwarp();  // every lane has written before any lane reads
      sum += cache[tid + offset];
    }
    if (tid == 0) out[blockIdx.x] = sum;
  }
}

template <typename T>
void reduce_last_warp(const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch) {
  reduce_in_passes(last_warp_kernel<T>, 2 * kThreads, in, n, result, ws, launch);
}

// ---- v5 -----------------------------------------------------------------------------------------

// v5's building blocks, warp_sum and block_sum, are in block_reduce.cuh, beside this file: read
// it now (lessons 03, 04 and 06 include it from there). warp_sum: at each of five steps a lane adds
// the value of the lane `offset` above it, by __shfl_down_sync, straight from that lane's register
// (no shared memory, no barrier); for ints on compute capability 8.0 and newer, __reduce_add_sync
// does all five steps in one instruction. block_sum: each warp sums its lanes, the warps' sums meet
// in 32 shared-memory slots (WarpSlots, which the kernel declares), and the first warp sums those;
// the block's sum ends in thread 0.

// v5 warp shuffles: the whole block reduction is warp_sum and block_sum, lanes exchanging
// registers (v4: every step went through shared memory). Two barriers per block in all.
template <typename T>
__global__ void shuffle_kernel(const T* in, std::size_t n, T* out) {
  const std::size_t i = blockIdx.x * (2 * static_cast<std::size_t>(blockDim.x)) + threadIdx.x;
  T sum = i < n ? in[i] : T(0);
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  __shared__ WarpSlots<T> slots;
  sum = block_sum(sum, slots);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

template <typename T>
void reduce_shuffle(const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch) {
  reduce_in_passes(shuffle_kernel<T>, 2 * kThreads, in, n, result, ws, launch);
}

// ---- v6 -----------------------------------------------------------------------------------------

// The block size of v6 and v7: with 2 blocks of 1024 threads per SM instead of 8 of 256, a
// quarter as many blocks each reduce, store a partial sum and wait at barriers.
constexpr int kBigBlock = 1024;

// This thread's share of in[0, n): a grid-stride loop over 16-byte vectors (4 elements each),
// two vectors per round into two separate sums, so that two loads are in flight at once (with one
// sum, each load would wait for the add before it); then the unaligned head and tail, for the
// grid's first threads.
template <typename T>
__device__ __forceinline__ T thread_sum(const T* in, std::size_t n) {
  const course::Aligned16<T> data(in, n);
  const std::size_t thread = course::first_index();
  const std::size_t threads = course::grid_stride();
  T first = 0;
  T second = 0;
  std::size_t i = thread;
  for (; i + threads < data.vectors; i += 2 * threads) {
    const auto a = data.body()[i];
    const auto b = data.body()[i + threads];
    first += (a.x + a.y) + (a.z + a.w);
    second += (b.x + b.y) + (b.z + b.w);
  }
  if (i < data.vectors) {  // the last round, with one vector left
    const auto a = data.body()[i];
    first += (a.x + a.y) + (a.z + a.w);
  }
  T sum = first + second;
  data.for_each_edge(thread, [&](T x) { sum += x; });
  return sum;
}

// v6 many elements per thread: a grid that just fills the GPU, each thread summing its share
// with 16-byte loads, two in flight, in a grid-stride loop, then one block_sum (v5: two elements
// per thread, and a block, a partial sum and a pass for every 512 elements). A second launch of
// one block adds the few partial sums. Blocks of kBigBlock threads.
template <typename T, int kBlock>
__global__ void __launch_bounds__(kBlock) grid_stride_kernel(const T* in, std::size_t n, T* out) {
  __shared__ WarpSlots<T> slots;
  const T sum = block_sum(thread_sum(in, n), slots);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

// The blocks of grid_stride_kernel<T, kBlock> that fit on the GPU at once.
template <typename T, int kBlock>
int resident_blocks() {
  static const int blocks = course::occupancy_grid(grid_stride_kernel<T, kBlock>, kBlock);
  return blocks;
}

// v6 with kBlock threads per block and, if blocks > 0, that many blocks (the grid-size
// experiment of exercise 4; otherwise as many as fit on the GPU at once).
template <typename T, int kBlock = kBigBlock>
void reduce_grid_stride(const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch,
                        int blocks = 0) {
  const int grid = blocks > 0 ? blocks : resident_blocks<T, kBlock>();
  T* partials = ws.partials(0);
  grid_stride_kernel<T, kBlock><<<grid, kBlock, 0, launch.stream>>>(in, n, partials);
  CUDA_CHECK_LAUNCH();
  grid_stride_kernel<T, kBlock><<<1, kBlock, 0, launch.stream>>>(partials, grid, result);
  CUDA_CHECK_LAUNCH();
}

// ---- v7 -----------------------------------------------------------------------------------------

// v7 one launch: the last block to finish adds up the partial sums (v6: a second launch did).
// Each block stores its partial sum, then a fence makes that store visible to every block before
// the block counts itself done with an atomic; the block that sees the count reach the grid size
// knows every partial sum is in, and adds them, in block order. That finish is
// finish_in_last_block, in block_reduce.cuh, beside this file (lesson 03 finishes the same
// way). (The other way to finish in one launch, an atomicAdd of each block's sum to the result,
// needs the result zeroed first, and for floats gives a different rounding on every run, since
// the blocks finish in a different order.)
template <typename T>
__global__ void __launch_bounds__(kBigBlock)
    one_launch_kernel(const T* in, std::size_t n, T* partials, unsigned int* finished, T* result) {
  __shared__ FinishSpace<T> space;
  finish_in_last_block(block_sum(thread_sum(in, n), space.slots), partials, finished, result,
                       space);
}

template <typename T>
void reduce_one_launch(const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch) {
  static const int grid = course::occupancy_grid(one_launch_kernel<T>, kBigBlock);
  one_launch_kernel<T>
      <<<grid, kBigBlock, 0, launch.stream>>>(in, n, ws.partials(0), ws.finished_blocks(), result);
  CUDA_CHECK_LAUNCH();
}

// ---- every version, in the table's order --------------------------------------------------

template <typename T>
using Run = void (*)(const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch);

template <typename T>
struct Version {
  const char* name;
  const char* idea;
  const char* finish;  // how the one result is reached
  Run<T> run;
  course::Kind kind = course::Kind::course;
};

template <typename T>
std::vector<Version<T>> versions() {
  return {
      {"v0", "interleaved addressing (reduce0)", "passes", reduce_interleaved<T>,
       course::Kind::source},
      {"v1", "strided index (reduce1)", "passes", reduce_strided_index<T>},
      {"v2", "sequential addressing (reduce2)", "passes", reduce_sequential<T>},
      {"v3", "first add during the load", "passes", reduce_first_add<T>},
      {"v4", "last warp unrolled, with __syncwarp", "passes", reduce_last_warp<T>},
      {"v5", "warp shuffles", "passes", reduce_shuffle<T>},
      {"v6", "many elements per thread, 16-byte loads", "2 launches",
       [](const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch) {
         reduce_grid_stride<T>(in, n, result, ws, launch);
       }},
      {"v7", "one launch, the last block finishes", "1 launch", reduce_one_launch<T>},
  };
}

// ---- the library --------------------------------------------------------------------------------

// cub::DeviceReduce::Sum as a user would call it, its temporary storage allocated once.
template <typename T>
class CubSum {
 public:
  explicit CubSum(std::size_t n) : n_(n) {
    std::size_t bytes = 0;
    CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const T*>(nullptr),
                                      static_cast<T*>(nullptr), static_cast<long long>(n_)));
    temp_ = course::DeviceBuffer<unsigned char>(bytes);
  }
  void operator()(const T* in, T* result, cudaStream_t stream = nullptr) {
    std::size_t bytes = temp_.size();
    CUDA_CHECK(cub::DeviceReduce::Sum(temp_.data(), bytes, in, result, static_cast<long long>(n_),
                                      stream));
  }

 private:
  std::size_t n_;
  course::DeviceBuffer<unsigned char> temp_;
};

}  // namespace lesson02
