// Grid sizes, the warp, and the grid-stride loop. A grid-stride kernel wants just enough blocks to
// fill the GPU: more only adds blocks that each pay the start-up and merge costs again; fewer
// leaves SMs, or the memory system, without enough work in flight.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <unordered_map>

#include "check.hpp"
#include "device_profile.hpp"
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

// One attribute of the current device (cudaDevAttrMultiProcessorCount, cudaDevAttrL2CacheSize...),
// or of the card COURSE_DEVICE_PROFILE names (common/device_profile.hpp).
inline int device_attribute(cudaDeviceAttr attribute) {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int value = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
  const DeviceProfile* profile = device_profile();
  if (profile == nullptr) return value;
  check_device_profile(device);
  return profiled_attribute(*profile, attribute, value);
}

// The number of SMs of the current device.
inline int sm_count() {
  return device_attribute(cudaDevAttrMultiProcessorCount);
}

// The L2 cache of the current device, in bytes (50 MiB on an H100).
inline std::size_t l2_bytes() {
  return static_cast<std::size_t>(device_attribute(cudaDevAttrL2CacheSize));
}

// The blocks of `kernel` one SM holds at once (limited by threads, registers and shared memory,
// whichever runs out first): the runtime's answer, and under a device profile no more than the
// profiled card's (its limits, with the registers the kernel was built with for this GPU).
// Host code compiled by nvcc only: it takes the kernel itself.
template <typename Kernel>
int blocks_per_sm(Kernel kernel, int threads_per_block, std::size_t dynamic_shared_bytes = 0) {
  int blocks = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads_per_block,
                                                           dynamic_shared_bytes));
  const DeviceProfile* profile = device_profile();
  if (profile == nullptr) return blocks;
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(kernel)));
  return std::min(blocks,
                  profiled_blocks_per_sm(*profile, threads_per_block, attributes.numRegs,
                                         attributes.sharedSizeBytes + dynamic_shared_bytes));
}

// The largest grid of `kernel` that is resident all at once: blocks_per_sm times the SMs.
template <typename Kernel>
int occupancy_grid(Kernel kernel, int threads_per_block, std::size_t dynamic_shared_bytes = 0) {
  return blocks_per_sm(kernel, threads_per_block, dynamic_shared_bytes) * sm_count();
}

// cudaLaunchCooperativeKernel, which refuses a grid the GPU cannot hold all at once; under a
// device profile, one the profiled card cannot hold gets the same refusal
// (cudaErrorCooperativeLaunchTooLarge). Returns the error, for CUDA_CHECK.
template <typename Kernel>
cudaError_t launch_cooperative(Kernel kernel, dim3 grid, dim3 block, void** args,
                               std::size_t dynamic_shared_bytes, cudaStream_t stream) {
  if (device_profile() != nullptr) {
    const int threads = static_cast<int>(block.x * block.y * block.z);
    const auto most =
        static_cast<unsigned long long>(occupancy_grid(kernel, threads, dynamic_shared_bytes));
    if (static_cast<unsigned long long>(grid.x) * grid.y * grid.z > most) {
      std::fprintf(stderr,
                   "device profile %s: a cooperative grid of %u blocks of %d threads "
                   "(%zu bytes of dynamic shared memory); the %s holds %llu at once\n",
                   device_profile()->name, grid.x * grid.y * grid.z, threads, dynamic_shared_bytes,
                   device_profile()->card, most);
      return cudaErrorCooperativeLaunchTooLarge;
    }
  }
  return cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), grid, block, args,
                                     dynamic_shared_bytes, stream);
}

// The most shared memory one block of the current device may have: 48 KiB by default, and more
// (227 KiB on an H100) for a kernel that opts in with allow_shared_bytes.
inline std::size_t max_shared_bytes() {
  return static_cast<std::size_t>(device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin));
}

// The shared memory a block may have without asking: a static __shared__ array can be no larger,
// and dynamic shared memory past it needs allow_shared_bytes.
constexpr std::size_t kDefaultSharedBytes = 48 * 1024;

// The static shared memory of `kernel` (its __shared__ arrays), asked once per kernel.
inline std::size_t static_shared_bytes(const void* kernel) {
  static std::mutex mutex;
  static std::unordered_map<const void*, std::size_t> known;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto found = known.find(kernel);
  if (found != known.end()) return found->second;
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  return known[kernel] = attributes.sharedSizeBytes;
}

// Asks that `kernel` may have `bytes` of dynamic shared memory. The GPU refuses more than its
// opt-in maximum less the kernel's static shared memory (cudaErrorInvalidValue); under a device
// profile, so does the profiled card's maximum.
template <typename Kernel>
cudaError_t set_dynamic_shared_bytes(Kernel kernel, std::size_t bytes) {
  if (device_profile() != nullptr) {
    const std::size_t fixed = static_shared_bytes(reinterpret_cast<const void*>(kernel));
    if (fixed + bytes > max_shared_bytes()) {
      std::fprintf(stderr,
                   "device profile %s: a kernel with %zu bytes of static shared memory "
                   "asks for %zu more; the %s allows %zu a block\n",
                   device_profile()->name, fixed, bytes, device_profile()->card,
                   max_shared_bytes());
      return cudaErrorInvalidValue;
    }
  }
  return cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                              cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));
}

// Lets `kernel` have `bytes` of dynamic shared memory. Without asking, a block may have 48 KiB of
// static and dynamic shared memory together, so this is a no-op up to that; more than the GPU
// allows ends the program, as any failed CUDA call does.
// Host code compiled by nvcc only: it takes the kernel itself.
template <typename Kernel>
void allow_shared_bytes(Kernel kernel, std::size_t bytes) {
  if (bytes + static_shared_bytes(reinterpret_cast<const void*>(kernel)) > kDefaultSharedBytes) {
    CUDA_CHECK(set_dynamic_shared_bytes(kernel, bytes));
  }
}

}  // namespace course
