// Lesson 03: the dot product of two float arrays, finished on the GPU. One kernel per version, in
// order, each followed by the host function that runs it; read from v0 down. Each version changes
// one idea.
//
// Every host function computes sum a[i] b[i] over the n elements at a and b (device memory, any n
// >= 1) and writes the result to *c (device memory), enqueuing all its work on launch.stream.
// The blocks compute partial sums; the versions differ in how those become one number: under a
// lock (v0, v1a, v1b), by atomicAdd (v2), or by a fixed-order sum of stored partials (v3, v4).
#pragma once

#include <cublas_v2.h>
#include <cuda/atomic>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "../02_reduce/block_reduce.cuh"
#include "check.hpp"
#include "device_memory.hpp"
#include "kind.hpp"
#include "launch.hpp"
#include "lock.cuh"
#include "reference.hpp"
#include "vector_loads.cuh"

namespace lesson03 {

constexpr int kThreads = 256;     // the seed's block size, kept by v0 to v3
constexpr int kSeedBlocks = 32;   // the seed's grid: min(32, ceil(n / 256)) blocks
constexpr int kBigBlock = 1024;   // v4's block size
constexpr int kMaxBlocks = 8192;  // the largest grid a version may be given (the lock sweep's)

// How to run a version: on which stream, and with how many blocks (0: the version's own grid).
struct Launch {
  cudaStream_t stream = nullptr;
  int blocks = 0;
};

// The two arrays, copied to the GPU.
struct DeviceInputs {
  course::DeviceBuffer<float> a;
  course::DeviceBuffer<float> b;
  explicit DeviceInputs(const Inputs& in) : a(in.a), b(in.b) {}
};

// ---- the locks ----------------------------------------------------------------------------------

// The two locks, the seed's SeedLock and the correct Lock, are in lock.cuh, beside this file:
// read it now (lesson 04 includes it from there, for a lock per bucket).

// The lock word's owner, on the host. It allocates and zeroes the word, frees it once, and cannot
// be copied. Kernels get a SeedLock or a Lock: a view holding only the pointer, safe to pass by
// value. (The book's Lock owned the word and was passed to the kernel by value, so the copy's
// destructor freed the word while the original still used it.)
class Mutex {
 public:
  Mutex() : word_(1) { word_.fill_bytes(0); }
  Lock view() { return Lock{word_.data()}; }
  SeedLock seed_view() { return SeedLock{word_.data()}; }

 private:
  course::DeviceBuffer<int> word_;
};

// Where v1b's blocks leave their sums: one 64-bit word per block, a tag in the high 32 bits and
// the float's bits in the low 32, so a slot is read and claimed in one atomic operation. Tags name
// the launch, so the slots never need clearing: in launch L, tag 2L means "left here" and 2L + 1
// "taken by a lock holder", who sets the tag's lowest bit; a tag from another launch means
// neither.
struct Slots {
  static constexpr unsigned long long kTakenBit = 1ull << 32;
  unsigned long long* words;
  unsigned int launch;  // >= 1

  __device__ unsigned long long left(float value) const {
    return (static_cast<unsigned long long>(2u * launch) << 32) | __float_as_uint(value);
  }
  __device__ bool is_left(unsigned long long word) const {
    return static_cast<unsigned int>(word >> 32) == 2u * launch;
  }
  __device__ bool is_taken(unsigned long long word) const {
    return static_cast<unsigned int>(word >> 32) == 2u * launch + 1u;
  }
  __device__ static float value(unsigned long long word) {
    return __uint_as_float(static_cast<unsigned int>(word));
  }
};

// Scratch memory, allocated once, outside the timed runs: the lock, v1b's slots, and the partial
// sums and finished-block counter of v3 and v4.
class Workspace {
 public:
  Workspace() : slots_(kMaxBlocks), partials_(kMaxBlocks), finished_(1) {
    slots_.fill_bytes(0);
    finished_.fill_bytes(0);
  }
  Mutex mutex;
  float* partials() { return partials_.data(); }
  unsigned int* finished_blocks() { return finished_.data(); }
  // The slots for the next launch (a new tag; after 2^31 launches, the tags start again from
  // slots cleared to 0).
  Slots next_slots(cudaStream_t stream) {
    if (++launches_ >= 0x80000000u) {
      slots_.fill_bytes(0, stream);
      launches_ = 1;
    }
    return Slots{slots_.data(), launches_};
  }

 private:
  course::DeviceBuffer<unsigned long long> slots_;
  course::DeviceBuffer<float> partials_;
  course::DeviceBuffer<unsigned int> finished_;
  unsigned int launches_ = 0;
};

// ---- the block's share, as the seed computes it ----------------------------------------------

// Each thread adds a[i] b[i] over a grid-stride loop; the block's threads then add their sums in
// a shared-memory tree (lesson 02's v2). Returns the block's sum (to every thread). kThreads
// threads per block.
__device__ inline float seed_block_dot(const float* a, const float* b, std::size_t n) {
  __shared__ float cache[kThreads];
  const unsigned int tid = threadIdx.x;
  float sum = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + tid; i < n;
       i += course::grid_stride())
    sum += a[i] * b[i];
  cache[tid] = sum;
  __syncthreads();
  for (unsigned int s = kThreads / 2; s > 0; s >>= 1) {
    if (tid < s) cache[tid] += cache[tid + s];
    __syncthreads();
  }
  return cache[0];
}

inline void check_grid(int blocks) {
  if (blocks < 1 || blocks > kMaxBlocks) {
    throw std::invalid_argument("a grid of " + std::to_string(blocks) +
                                " blocks: lesson 03 takes 1 to " + std::to_string(kMaxBlocks));
  }
}

// ---- v0 and v1a: every block takes the lock in turn ------------------------------------------

// v0 (LockType = SeedLock) and v1a (LockType = Lock): thread 0 of each block adds the block's sum
// to *c inside the lock. *c must be zero before the launch. kReadFromL2 is for the race
// demonstration only: the seed's lock with *c read from L2 (__ldcg), past the SM's L1 cache.
template <typename LockType, bool kReadFromL2 = false>
__global__ void __launch_bounds__(kThreads)
    lock_kernel(const float* a, const float* b, std::size_t n, LockType lock, float* c) {
  const float sum = seed_block_dot(a, b, n);
  if (threadIdx.x == 0) {
    lock.lock();
    if constexpr (kReadFromL2) {
      *c = __ldcg(c) + sum;
    } else {
      *c += sum;
    }
    lock.unlock();
  }
}

// The grid v0 keeps: the seed's min(32, ceil(n / 256)), and never more blocks than SMs, so that no
// SM runs two blocks (which is when the seed's lock loses updates; see the write-up).
inline int seed_grid(std::size_t n) {
  const std::size_t needed = (n + kThreads - 1) / kThreads;
  return static_cast<int>(std::min<std::size_t>(
      {needed, std::size_t{kSeedBlocks}, static_cast<std::size_t>(course::sm_count())}));
}

// The grid of v1a to v3: as many blocks of kThreads as the GPU holds at once (8 per SM on an
// H100), and no more than the input needs.
inline int full_grid(std::size_t n) {
  static const int resident = course::occupancy_grid(lock_kernel<Lock>, kThreads);
  const std::size_t needed = (n + kThreads - 1) / kThreads;
  return static_cast<int>(std::min<std::size_t>(needed, static_cast<std::size_t>(resident)));
}

// v0 the seed's lock: atomicCAS to take it, atomicExch to release it, no fence; the seed's 32
// blocks (launch.blocks > 0 sets the grid: the race demonstration gives it more, and runs it with
// kReadFromL2 too).
template <bool kReadFromL2 = false>
void dot_seed_lock(const float* a, const float* b, std::size_t n, float* c, Workspace& ws,
                   Launch launch) {
  const int blocks = launch.blocks > 0 ? launch.blocks : seed_grid(n);
  check_grid(blocks);
  CUDA_CHECK(cudaMemsetAsync(c, 0, sizeof(float), launch.stream));
  lock_kernel<SeedLock, kReadFromL2>
      <<<blocks, kThreads, 0, launch.stream>>>(a, b, n, ws.mutex.seed_view(), c);
  CUDA_CHECK_LAUNCH();
}

// v1a a correct lock (acquire when taken, release when freed), and the full grid (v0: no memory
// ordering, and 32 blocks). Every block waits its turn at the end.
inline void dot_lock(const float* a, const float* b, std::size_t n, float* c, Workspace& ws,
                     Launch launch) {
  const int blocks = launch.blocks > 0 ? launch.blocks : full_grid(n);
  check_grid(blocks);
  CUDA_CHECK(cudaMemsetAsync(c, 0, sizeof(float), launch.stream));
  lock_kernel<<<blocks, kThreads, 0, launch.stream>>>(a, b, n, ws.mutex.view(), c);
  CUDA_CHECK_LAUNCH();
}

// ---- v1b ----------------------------------------------------------------------------------------

// v1b the lock holder adds for the waiting (v1a: every block takes the lock itself). A block
// leaves its sum in its slot, then, until its sum has been taken, tries the lock; the block that
// gets it claims every sum left so far (its own among them), adds them all to *c in one critical
// section, and releases. A block whose sum another holder took leaves without the lock. So a few
// critical sections serve the whole grid, instead of one per block. *c must be zero first.
__global__ void __launch_bounds__(kThreads)
    combining_lock_kernel(const float* a, const float* b, std::size_t n, Lock lock, Slots slots,
                          float* c) {
  enum Action { kWait, kLeave, kCollect };
  __shared__ int action;
  using DeviceAtomicWord = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;
  const float sum = seed_block_dot(a, b, n);
  DeviceAtomicWord mine(slots.words[blockIdx.x]);
  if (threadIdx.x == 0) mine.store(slots.left(sum), cuda::memory_order_relaxed);
  for (;;) {
    if (threadIdx.x == 0) {
      action = slots.is_taken(mine.load(cuda::memory_order_relaxed)) ? kLeave
               : lock.try_lock()                                     ? kCollect
                                                                     : kWait;
      if (action == kWait) __nanosleep(64);
    }
    __syncthreads();  // thread 0's decision is in before anyone reads it
    const int now = action;
    __syncthreads();  // everyone has read it before thread 0 decides again
    if (now == kLeave) return;
    if (now == kCollect) break;
  }
  // Thread 0 holds the lock. The whole block claims the sums left so far: an atomic OR sets each
  // slot's taken bit and returns the word as it was, so a sum is claimed once, by one holder,
  // however many look at it. (On a slot from an earlier launch the bit changes nothing that
  // matters; a block that leaves its sum later overwrites the whole word.) The ORs on the slots
  // are independent of one another, so they travel to L2 together.
  float collected = 0;
#pragma unroll 4
  for (unsigned int j = threadIdx.x; j < gridDim.x; j += blockDim.x) {
    const unsigned long long was =
        DeviceAtomicWord(slots.words[j]).fetch_or(Slots::kTakenBit, cuda::memory_order_relaxed);
    if (slots.is_left(was)) collected += Slots::value(was);
  }
  __shared__ lesson02::WarpSlots<float> warp_sums;
  collected = lesson02::block_sum(collected, warp_sums);
  if (threadIdx.x == 0) {
    *c += collected;
    lock.unlock();
  }
}

inline void dot_combining_lock(const float* a, const float* b, std::size_t n, float* c,
                               Workspace& ws, Launch launch) {
  const int blocks = launch.blocks > 0 ? launch.blocks : full_grid(n);
  check_grid(blocks);
  CUDA_CHECK(cudaMemsetAsync(c, 0, sizeof(float), launch.stream));
  combining_lock_kernel<<<blocks, kThreads, 0, launch.stream>>>(a, b, n, ws.mutex.view(),
                                                                ws.next_slots(launch.stream), c);
  CUDA_CHECK_LAUNCH();
}

// ---- v2 -----------------------------------------------------------------------------------------

// v2 float atomicAdd finishes (v1b: a lock). Each block adds its sum to *c with one atomic, done
// in L2; the order of those additions changes from run to run. *c must be zero first.
__global__ void __launch_bounds__(kThreads)
    atomic_add_kernel(const float* a, const float* b, std::size_t n, float* c) {
  const float sum = seed_block_dot(a, b, n);
  if (threadIdx.x == 0) atomicAdd(c, sum);
}

inline void dot_atomic_add(const float* a, const float* b, std::size_t n, float* c, Workspace&,
                           Launch launch) {
  const int blocks = launch.blocks > 0 ? launch.blocks : full_grid(n);
  check_grid(blocks);
  CUDA_CHECK(cudaMemsetAsync(c, 0, sizeof(float), launch.stream));
  atomic_add_kernel<<<blocks, kThreads, 0, launch.stream>>>(a, b, n, c);
  CUDA_CHECK_LAUNCH();
}

// ---- v3 -----------------------------------------------------------------------------------------

// v3 deterministic, in two passes (v2: atomicAdd in whatever order the blocks finish). Each block
// stores its sum; a second launch of one block adds the stored sums in a fixed order. With the
// same grid, every run adds the same numbers in the same order: the same bits every time.
__global__ void __launch_bounds__(kThreads)
    partials_kernel(const float* a, const float* b, std::size_t n, float* partials) {
  const float sum = seed_block_dot(a, b, n);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

__global__ void __launch_bounds__(kBigBlock)
    add_partials_kernel(const float* partials, int count, float* c) {
  float sum = 0;
  for (int j = static_cast<int>(threadIdx.x); j < count; j += blockDim.x)
    sum += partials[j];
  __shared__ lesson02::WarpSlots<float> warp_sums;
  sum = lesson02::block_sum(sum, warp_sums);
  if (threadIdx.x == 0) *c = sum;
}

inline void dot_two_pass(const float* a, const float* b, std::size_t n, float* c, Workspace& ws,
                         Launch launch) {
  const int blocks = launch.blocks > 0 ? launch.blocks : full_grid(n);
  check_grid(blocks);
  partials_kernel<<<blocks, kThreads, 0, launch.stream>>>(a, b, n, ws.partials());
  CUDA_CHECK_LAUNCH();
  add_partials_kernel<<<1, kBigBlock, 0, launch.stream>>>(ws.partials(), blocks, c);
  CUDA_CHECK_LAUNCH();
}

// ---- v4 -----------------------------------------------------------------------------------------

// This thread's share of sum a[i] b[i]: a grid-stride loop over 16-byte vectors of a and b (4
// elements each), two rounds at a time into two sums, so that four loads are in flight at once;
// then the unaligned head and tail. When a and b are not equally misaligned, their vectors would
// not pair up, and the loop takes one element at a time instead.
__device__ __forceinline__ float thread_dot(const float* a, const float* b, std::size_t n) {
  const course::Aligned16<float> va(a, n);
  const course::Aligned16<float> vb(b, n);
  const std::size_t thread = course::first_index();
  const std::size_t threads = course::grid_stride();
  float first = 0;
  float second = 0;
  if (va.head != vb.head) {
    for (std::size_t i = thread; i < n; i += threads)
      first += a[i] * b[i];
    return first;
  }
  auto dot4 = [](float4 x, float4 y, float sum) {
    return ((sum + x.x * y.x) + x.y * y.y) + (x.z * y.z + x.w * y.w);
  };
  std::size_t i = thread;
  for (; i + threads < va.vectors; i += 2 * threads) {
    const float4 a0 = va.body()[i];
    const float4 b0 = vb.body()[i];
    const float4 a1 = va.body()[i + threads];
    const float4 b1 = vb.body()[i + threads];
    first = dot4(a0, b0, first);
    second = dot4(a1, b1, second);
  }
  if (i < va.vectors) first = dot4(va.body()[i], vb.body()[i], first);
  float sum = first + second;
  va.for_each_edge_index(thread, [&](std::size_t j) { sum += a[j] * b[j]; });
  return sum;
}

// v4 near bandwidth: 16-byte loads of both arrays, four in flight per thread, warp shuffles for
// the block's sum, blocks of 1024 threads, and one launch, in which the last block to finish adds
// the stored sums in block order (v3: 4-byte loads, a shared-memory tree, a second launch). Still
// deterministic.
__global__ void __launch_bounds__(kBigBlock)
    near_bandwidth_kernel(const float* a, const float* b, std::size_t n, float* partials,
                          unsigned int* finished, float* c) {
  __shared__ lesson02::FinishSpace<float> space;
  lesson02::finish_in_last_block(lesson02::block_sum(thread_dot(a, b, n), space.slots), partials,
                                 finished, c, space);
}

// v4's grid: as many blocks of kBigBlock as the GPU holds at once, whatever n (the parameter gives
// every version's grid function the same signature).
inline int near_bandwidth_grid(std::size_t) {
  static const int grid = course::occupancy_grid(near_bandwidth_kernel, kBigBlock);
  return grid;
}

inline void dot_near_bandwidth(const float* a, const float* b, std::size_t n, float* c,
                               Workspace& ws, Launch launch) {
  const int blocks = launch.blocks > 0 ? launch.blocks : near_bandwidth_grid(n);
  check_grid(blocks);
  near_bandwidth_kernel<<<blocks, kBigBlock, 0, launch.stream>>>(a, b, n, ws.partials(),
                                                                 ws.finished_blocks(), c);
  CUDA_CHECK_LAUNCH();
}

// ---- every version, in the table's order --------------------------------------------------

using Run = void (*)(const float* a, const float* b, std::size_t n, float* c, Workspace& ws,
                     Launch launch);

struct Version {
  const char* name;
  const char* idea;
  Run run;
  int (*grid)(std::size_t n);  // its default grid
  int threads_per_block;
  course::Kind kind = course::Kind::course;
};

inline std::vector<Version> versions() {
  return {
      {"v0", "the seed's lock: atomicCAS, no fence; 32 blocks", dot_seed_lock<>, seed_grid,
       kThreads, course::Kind::source},
      {"v1a", "a correct lock (acquire, release); full grid", dot_lock, full_grid, kThreads},
      {"v1b", "the lock holder adds the waiting blocks' sums", dot_combining_lock, full_grid,
       kThreads},
      {"v2", "float atomicAdd finishes", dot_atomic_add, full_grid, kThreads},
      {"v3", "deterministic: stored sums, a second launch adds", dot_two_pass, full_grid, kThreads},
      {"v4", "16-byte loads, shuffles, last block adds", dot_near_bandwidth, near_bandwidth_grid,
       kBigBlock},
  };
}

// The shape of a version's computation, for its error bound (reference.hpp).
inline Shape shape_of(const Version& v, std::size_t n, int blocks = 0) {
  const int grid = blocks > 0 ? blocks : v.grid(n);
  return Shape{static_cast<std::size_t>(grid) * static_cast<std::size_t>(v.threads_per_block),
               static_cast<std::size_t>(grid)};
}

// ---- the library --------------------------------------------------------------------------------

inline void cublas_check(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, call, cublasGetStatusName(status),
               cublasGetStatusString(status));
  std::fflush(stderr);
  std::exit(1);
}
#define CUBLAS_CHECK(call) ::lesson03::cublas_check((call), #call, __FILE__, __LINE__)

// cublasSdot as a user would call it, with the result left on the device (pointer mode device),
// as every version's is. The 64-bit interface (cublasSdot_64) takes n past 2^31.
class CublasDot {
 public:
  CublasDot() {
    CUBLAS_CHECK(cublasCreate(&handle_));
    CUBLAS_CHECK(cublasSetPointerMode(handle_, CUBLAS_POINTER_MODE_DEVICE));
  }
  ~CublasDot() { cublasDestroy(handle_); }
  CublasDot(const CublasDot&) = delete;
  CublasDot& operator=(const CublasDot&) = delete;

  void operator()(const float* a, const float* b, std::size_t n, float* c,
                  cudaStream_t stream = nullptr) {
    CUBLAS_CHECK(cublasSetStream(handle_, stream));
    CUBLAS_CHECK(cublasSdot_64(handle_, static_cast<std::int64_t>(n), a, 1, b, 1, c));
  }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace lesson03
