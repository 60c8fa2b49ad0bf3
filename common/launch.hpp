// Grid sizes, the warp, and the grid-stride loop. A grid-stride kernel wants just enough blocks to
// fill the GPU: more only adds blocks that each pay the start-up and merge costs again; fewer
// leaves SMs, or the memory system, without enough work in flight.
#pragma once

#include <cstddef>

#include "check.hpp"
#include "warp.hpp"

namespace course {

#ifdef __CUDACC__
// The grid-stride loop, written the one way the course writes it:
//   for (std::size_t i = course::first_index(); i < n; i += course::grid_stride())
// A thread starts at its place in the grid and steps by the grid's size, so any grid covers any n
// (in 64-bit indices: n may pass 2^32).
__device__ inline std::size_t first_index() {
  return blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
}
__device__ inline std::size_t grid_stride() {
  return static_cast<std::size_t>(gridDim.x) * blockDim.x;
}
#endif

// One attribute of the current device (cudaDevAttrMultiProcessorCount, cudaDevAttrL2CacheSize...).
inline int device_attribute(cudaDeviceAttr attribute) {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int value = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
  return value;
}

// The number of SMs of the current device.
inline int sm_count() {
  return device_attribute(cudaDevAttrMultiProcessorCount);
}

// The L2 cache of the current device, in bytes (50 MiB on an H100).
inline std::size_t l2_bytes() {
  return static_cast<std::size_t>(device_attribute(cudaDevAttrL2CacheSize));
}

// The largest grid of `kernel` that is resident all at once: the blocks one SM can hold (limited
// by threads, registers and shared memory, whichever runs out first), times the SMs.
// Host code compiled by nvcc only: it takes the kernel itself.
template <typename Kernel>
int occupancy_grid(Kernel kernel, int threads_per_block, std::size_t dynamic_shared_bytes = 0) {
  int blocks_per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks_per_sm, kernel, threads_per_block, dynamic_shared_bytes));
  return blocks_per_sm * sm_count();
}

// The most shared memory one block of the current device may have: 48 KiB by default, and more
// (227 KiB on an H100) for a kernel that opts in with allow_shared_bytes.
inline std::size_t max_shared_bytes() {
  return static_cast<std::size_t>(device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin));
}

// The shared memory a block may have without asking: a static __shared__ array can be no larger,
// and dynamic shared memory past it needs allow_shared_bytes.
constexpr std::size_t kDefaultSharedBytes = 48 * 1024;

// Lets `kernel` have `bytes` of dynamic shared memory (a no-op up to the default 48 KiB).
// Host code compiled by nvcc only: it takes the kernel itself.
template <typename Kernel>
void allow_shared_bytes(Kernel kernel, std::size_t bytes) {
  if (bytes > kDefaultSharedBytes) {
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(bytes)));
  }
}

}  // namespace course
