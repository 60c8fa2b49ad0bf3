// How lesson 03's versions run: block sizes and grids, the Launch settings, the inputs on the GPU,
// the workspace every version is given (the lock, v1b's slots, the partial sums of v3 and v4), and
// the block's share of the dot product as the source computes it (v0 to v3).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "../lock.cuh"
#include "../reference.hpp"
#include "device_memory.hpp"
#include "launch.hpp"

namespace lesson03 {

constexpr int kThreads = 256;      // the source's block size, kept by v0 to v3
constexpr int kSourceBlocks = 32;  // the source's grid: min(32, ceil(n / 256)) blocks
constexpr int kBigBlock = 1024;    // v4's block size
constexpr int kMaxBlocks = 8192;   // the largest grid a version may be given (the lock sweep's)

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

// The two locks, the source's SourceLock and the correct Lock, are in ../lock.cuh, beside
// kernels.cuh: read it now (lesson 04 includes it from there, for a lock per bucket).

// The lock word's owner, on the host. It allocates and zeroes the word, frees it once, and cannot
// be copied. Kernels get a SourceLock or a Lock: a view holding only the pointer, safe to pass by
// value. (The book's Lock owned the word and was passed to the kernel by value, so the copy's
// destructor freed the word while the original still used it.)
class Mutex {
 public:
  Mutex() : word_(1) { word_.fill_bytes(0); }
  Lock view() { return Lock{word_.data()}; }
  SourceLock source_view() { return SourceLock{word_.data()}; }

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

// ---- the block's share, as the source computes it ----------------------------------------------

// Each thread adds a[i] b[i] over a grid-stride loop; the block's threads then add their sums in
// a shared-memory tree (lesson 02's v2). Returns the block's sum (to every thread). kThreads
// threads per block.
__device__ inline float source_block_dot(const float* a, const float* b, std::size_t n) {
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

}  // namespace lesson03
