// How lesson 01's versions are launched: the source's launch shape, the Launch settings every host
// function takes, the counters in an allocation of their own, and the two launch helpers every
// version's host function calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "../reference.hpp"
#include "check.hpp"
#include "device_memory.hpp"
#include "launch.hpp"

namespace lesson01 {

// The source's launch shape, kept by v0 to v3: 256 threads, one per bin (so v1's block zeroes and
// merges its histogram in one step per thread), and 2 blocks per SM (the source's rule of thumb).
constexpr int kSourceThreads = 256;
constexpr int kSourceBlocksPerSm = 2;

inline int source_grid() {
  return kSourceBlocksPerSm * course::sm_count();
}

// How to launch a version: on which stream, and with how many blocks. blocks == 0 keeps the
// version's own grid; the grid-size experiment (exercise 4, --blocks) sets it.
struct Launch {
  cudaStream_t stream = nullptr;
  int blocks = 0;
  int grid_or(int own) const { return blocks > 0 ? blocks : own; }
};

// The 256 counters, in an allocation of their own, `offset` bytes past a 4 KiB boundary. Where
// they lie changes v0's time: its atomics are served at the L2 cache, whose slices each serve
// their own addresses, so the counters' addresses decide how many slices share the work (the
// README's Version 0; lesson01 --bins-offset). The default, 0, keeps them in one 1 KiB-aligned
// block.
template <typename Counter>
class Counters {
 public:
  explicit Counters(std::size_t offset) : space_(2 * kPage) {
    const auto base = reinterpret_cast<std::uintptr_t>(space_.data());
    at_ = reinterpret_cast<Counter*>((base + kPage - 1) / kPage * kPage + offset);
  }
  Counter* data() { return at_; }
  void fill_bytes(unsigned char value) {
    CUDA_CHECK(cudaMemsetAsync(at_, value, kBins * sizeof(Counter)));
  }
  std::vector<Counter> download() const {
    std::vector<Counter> host(kBins);
    CUDA_CHECK(cudaMemcpy(host.data(), at_, kBins * sizeof(Counter), cudaMemcpyDeviceToHost));
    return host;
  }

 private:
  static constexpr std::size_t kPage = 4096;
  course::DeviceBuffer<unsigned char> space_;
  Counter* at_ = nullptr;
};

// What every version's host function does: zero the bins (the kernels add to them), then launch
// kernel<<<grid, threads>>> on launch.stream (launch.blocks, if set, replaces grid).
template <typename Counter>
void launch_counting(void (*kernel)(const std::uint8_t*, std::size_t, Counter*), int grid,
                     int threads, const std::uint8_t* data, std::size_t n, Counter* bins,
                     const Launch& launch) {
  CUDA_CHECK(cudaMemsetAsync(bins, 0, kBins * sizeof(Counter), launch.stream));
  kernel<<<launch.grid_or(grid), threads, 0, launch.stream>>>(data, n, bins);
  CUDA_CHECK_LAUNCH();
}

// launch_counting with the grid that fills the GPU: as many blocks of kThreads as fit at once
// (v4 on). It is computed once per kernel (the course's programs use one GPU), so no query runs
// between the launches that are timed.
template <auto kKernel, int kThreads, typename Counter>
void launch_resident(const std::uint8_t* data, std::size_t n, Counter* bins, const Launch& launch) {
  static const int resident = course::occupancy_grid(kKernel, kThreads);
  launch_counting(kKernel, resident, kThreads, data, n, bins, launch);
}

}  // namespace lesson01
