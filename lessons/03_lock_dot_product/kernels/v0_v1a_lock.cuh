// v0 and v1a: every block takes the lock in turn, the source's lock (v0) or a correct one (v1a);
// and the grids of v0 and of v1a to v3.
#pragma once

#include <algorithm>
#include <cstddef>

#include "check.hpp"
#include "launch.hpp"
#include "settings.cuh"

namespace lesson03 {

// v0 (LockType = SourceLock) and v1a (LockType = Lock): thread 0 of each block adds the block's sum
// to *c inside the lock. *c must be zero before the launch. kReadFromL2 is for the race
// demonstration only: the source's lock with *c read from L2 (__ldcg), past the SM's L1 cache.
template <typename LockType, bool kReadFromL2 = false>
__global__ void __launch_bounds__(kThreads)
    lock_kernel(const float* a, const float* b, std::size_t n, LockType lock, float* c) {
  const float sum = source_block_dot(a, b, n);
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

// The grid v0 keeps: the source's min(32, ceil(n / 256)), and never more blocks than SMs, so that
// no SM runs two blocks (which is when the source's lock loses updates; see the write-up).
inline int source_grid(std::size_t n) {
  const std::size_t needed = (n + kThreads - 1) / kThreads;
  return static_cast<int>(std::min<std::size_t>(
      {needed, std::size_t{kSourceBlocks}, static_cast<std::size_t>(course::sm_count())}));
}

// The grid of v1a to v3: as many blocks of kThreads as the GPU holds at once (8 per SM on an
// H100), and no more than the input needs.
inline int full_grid(std::size_t n) {
  static const int resident = course::occupancy_grid(lock_kernel<Lock>, kThreads);
  const std::size_t needed = (n + kThreads - 1) / kThreads;
  return static_cast<int>(std::min<std::size_t>(needed, static_cast<std::size_t>(resident)));
}

// v0 the source's lock: atomicCAS to take it, atomicExch to release it, no fence; the source's 32
// blocks (launch.blocks > 0 sets the grid: the race demonstration gives it more, and runs it with
// kReadFromL2 too).
template <bool kReadFromL2 = false>
void dot_source_lock(const float* a, const float* b, std::size_t n, float* c, Workspace& ws,
                     Launch launch) {
  const int blocks = launch.blocks > 0 ? launch.blocks : source_grid(n);
  check_grid(blocks);
  CUDA_CHECK(cudaMemsetAsync(c, 0, sizeof(float), launch.stream));
  lock_kernel<SourceLock, kReadFromL2>
      <<<blocks, kThreads, 0, launch.stream>>>(a, b, n, ws.mutex.source_view(), c);
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

}  // namespace lesson03
