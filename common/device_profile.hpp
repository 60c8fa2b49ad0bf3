// Device profiles: a student's GPU's limits, seen on a bigger GPU (docs/your_gpu.md).
//
//   COURSE_DEVICE_PROFILE=t4 ./build/default/lessons/06_top_k/lesson06
//
// Under a profile every attribute the course reads through course::device_attribute (SMs, L2,
// shared memory, registers, resident blocks and threads, compute capability) is the profiled
// card's; a grid sized from occupancy gets that card's occupancy (course::blocks_per_sm); and a
// request past its limits fails with the error that card gives: a shared-memory opt-in past its
// maximum (cudaErrorInvalidValue), a cooperative grid larger than it holds at once
// (cudaErrorCooperativeLaunchTooLarge). What a profile cannot give: the card's clocks, its memory
// bandwidth, its L2's real size (the data still live in this GPU's L2), its instruction set (the
// code is the one built for this GPU: build for the card's architecture as well, docs/your_gpu.md),
// and what libraries (CUB, Thrust, cuCollections, NCCL) read from the driver themselves.
//
// Host-only: it reads the runtime API, not device code.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "check.hpp"

namespace course {

// One card's limits, as NVIDIA documents them (docs/your_gpu.md quotes each source).
struct DeviceProfile {
  const char* name;  // the value of COURSE_DEVICE_PROFILE
  const char* card;  // NVIDIA's name for the card
  int major;         // compute capability
  int minor;
  int sms;
  int l2_bytes;
  int shared_per_block_optin;     // the most a kernel may opt into
  int shared_per_sm;              // the most an SM can hold
  int shared_reserved_per_block;  // what the system keeps of it per resident block
  int shared_unit;                // a block's shared memory is allocated in units of this
  int registers_per_sm;
  int registers_per_block;
  int blocks_per_sm;   // resident at once
  int threads_per_sm;  // resident at once
};

constexpr int kKiB = 1024;
constexpr int kMiB = 1024 * 1024;

// The profiles. The names are also in cmake/CourseLesson.cmake (COURSE_DEVICE_PROFILES), which
// runs every GPU test under each; common/tests checks that the two lists agree.
inline constexpr DeviceProfile kDeviceProfiles[] = {
    {"t4", "NVIDIA T4", 7, 5, 40, 4 * kMiB, 64 * kKiB, 64 * kKiB, 0, 256, 65536, 65536, 16, 1024},
    {"rtx3060", "NVIDIA GeForce RTX 3060", 8, 6, 28, 3 * kMiB, 99 * kKiB, 100 * kKiB, 1 * kKiB, 128,
     65536, 65536, 16, 1536},
    {"rtx4090", "NVIDIA GeForce RTX 4090", 8, 9, 128, 72 * kMiB, 99 * kKiB, 100 * kKiB, 1 * kKiB,
     128, 65536, 65536, 24, 1536},
    {"a100", "NVIDIA A100", 8, 0, 108, 40 * kMiB, 163 * kKiB, 164 * kKiB, 1 * kKiB, 128, 65536,
     65536, 32, 2048},
    {"l4", "NVIDIA L4", 8, 9, 58, 48 * kMiB, 99 * kKiB, 100 * kKiB, 1 * kKiB, 128, 65536, 65536, 24,
     1536},
};

// The profile called `name`, or nullptr.
inline const DeviceProfile* find_device_profile(const char* name) {
  for (const DeviceProfile& p : kDeviceProfiles) {
    if (std::strcmp(p.name, name) == 0) return &p;
  }
  return nullptr;
}

inline std::string device_profile_names() {
  std::string out;
  for (const DeviceProfile& p : kDeviceProfiles) {
    out += out.empty() ? p.name : std::string(", ") + p.name;
  }
  return out;
}

// The profile's value of `attribute`, or `real` for an attribute it does not set.
inline int profiled_attribute(const DeviceProfile& p, cudaDeviceAttr attribute, int real) {
  switch (attribute) {
    case cudaDevAttrComputeCapabilityMajor:
      return p.major;
    case cudaDevAttrComputeCapabilityMinor:
      return p.minor;
    case cudaDevAttrMultiProcessorCount:
      return p.sms;
    case cudaDevAttrL2CacheSize:
      return p.l2_bytes;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
      return p.shared_per_block_optin;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
      return p.shared_per_sm;
    case cudaDevAttrReservedSharedMemoryPerBlock:
      return p.shared_reserved_per_block;
    case cudaDevAttrMaxRegistersPerMultiprocessor:
      return p.registers_per_sm;
    case cudaDevAttrMaxRegistersPerBlock:
      return p.registers_per_block;
    case cudaDevAttrMaxBlocksPerMultiprocessor:
      return p.blocks_per_sm;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
      return p.threads_per_sm;
    default:
      return real;
  }
}

// The blocks of a kernel that one SM of the profiled card holds at once, by the rules of the
// toolkit's occupancy calculator (cuda_occupancy.h): threads; registers, allocated per warp in
// units of 256 from four quarters of the register file, each holding whole warps; and shared
// memory, the block's static and dynamic bytes plus the system's reserve, allocated in units of
// shared_unit; whichever runs out first. 0 when one block does not fit at all. `registers` is the
// kernel's registers per thread.
inline int profiled_blocks_per_sm(const DeviceProfile& p, int threads, int registers,
                                  std::size_t shared_bytes) {
  if (threads <= 0 || threads > 1024 || threads > p.threads_per_sm) return 0;
  if (shared_bytes > static_cast<std::size_t>(p.shared_per_block_optin)) return 0;
  const int warps = (threads + 31) / 32;
  int blocks = std::min(p.blocks_per_sm, p.threads_per_sm / (warps * 32));
  if (registers > 0) {
    constexpr int kQuarters = 4;
    const int per_warp = (registers * 32 + 255) / 256 * 256;
    if (per_warp * warps > p.registers_per_block) return 0;
    const int warps_per_sm = p.registers_per_sm / kQuarters / per_warp * kQuarters;
    blocks = std::min(blocks, warps_per_sm / warps);
  }
  const std::size_t unit = static_cast<std::size_t>(p.shared_unit);
  const std::size_t per_block =
      (shared_bytes + static_cast<std::size_t>(p.shared_reserved_per_block) + unit - 1) / unit *
      unit;
  if (per_block > 0) {
    blocks = std::min<std::size_t>(blocks, static_cast<std::size_t>(p.shared_per_sm) / per_block);
  }
  return blocks;
}

// What this GPU lacks to show `p`, or "" when it has at least each of its limits (the L2 and the
// compute capability aside: the first sizes buffers only, the second is a number the programs
// read).
inline std::string device_profile_shortfall(const DeviceProfile& p, int device) {
  struct Need {
    cudaDeviceAttr attribute;
    int wanted;
    const char* what;
  };
  const Need needs[] = {
      {cudaDevAttrMultiProcessorCount, p.sms, "SMs"},
      {cudaDevAttrMaxSharedMemoryPerBlockOptin, p.shared_per_block_optin,
       "bytes of shared memory per block"},
      {cudaDevAttrMaxSharedMemoryPerMultiprocessor, p.shared_per_sm,
       "bytes of shared memory per SM"},
      {cudaDevAttrMaxRegistersPerMultiprocessor, p.registers_per_sm, "registers per SM"},
      {cudaDevAttrMaxBlocksPerMultiprocessor, p.blocks_per_sm, "resident blocks per SM"},
      {cudaDevAttrMaxThreadsPerMultiProcessor, p.threads_per_sm, "resident threads per SM"},
  };
  for (const Need& need : needs) {
    int real = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&real, need.attribute, device));
    if (real < need.wanted) {
      return std::to_string(real) + " " + need.what + ", the " + p.card + " " +
             std::to_string(need.wanted);
    }
  }
  return "";
}

// The profile COURSE_DEVICE_PROFILE names, or nullptr when it is unset or empty. An unknown name
// ends the program with a one-line error and status 2, as a bad flag does.
inline const DeviceProfile* device_profile() {
  static const DeviceProfile* const profile = [] {
    const char* name = std::getenv("COURSE_DEVICE_PROFILE");
    if (name == nullptr || *name == '\0') return static_cast<const DeviceProfile*>(nullptr);
    const DeviceProfile* found = find_device_profile(name);
    if (found == nullptr) {
      std::fprintf(stderr, "error: COURSE_DEVICE_PROFILE=%s: no such profile (the profiles: %s)\n",
                   name, device_profile_names().c_str());
      std::exit(2);
    }
    return found;
  }();
  return profile;
}

// Ends the program (status 2, one line) when this GPU has less than the active profile: it could
// not show that card's limits. Called before a program's first GPU work.
inline void check_device_profile(int device) {
  const DeviceProfile* p = device_profile();
  static bool checked = false;  // once: the course's machines hold GPUs of one kind
  if (p == nullptr || checked) return;
  checked = true;
  const std::string shortfall = device_profile_shortfall(*p, device);
  if (!shortfall.empty()) {
    std::fprintf(stderr,
                 "error: COURSE_DEVICE_PROFILE=%s needs a GPU with at least the %s's "
                 "limits: this one has %s\n",
                 p->name, p->card, shortfall.c_str());
    std::exit(2);
  }
}

// cudaGetDeviceProperties, with the active profile's limits in place of the device's.
inline cudaDeviceProp device_properties(int device) {
  cudaDeviceProp props{};
  CUDA_CHECK(cudaGetDeviceProperties(&props, device));
  const DeviceProfile* p = device_profile();
  if (p == nullptr) return props;
  check_device_profile(device);
  props.major = p->major;
  props.minor = p->minor;
  props.multiProcessorCount = p->sms;
  props.l2CacheSize = p->l2_bytes;
  props.sharedMemPerBlockOptin = static_cast<std::size_t>(p->shared_per_block_optin);
  props.sharedMemPerMultiprocessor = static_cast<std::size_t>(p->shared_per_sm);
  props.reservedSharedMemPerBlock = static_cast<std::size_t>(p->shared_reserved_per_block);
  props.regsPerMultiprocessor = p->registers_per_sm;
  props.regsPerBlock = p->registers_per_block;
  props.maxBlocksPerMultiProcessor = p->blocks_per_sm;
  props.maxThreadsPerMultiProcessor = p->threads_per_sm;
  return props;
}

}  // namespace course
