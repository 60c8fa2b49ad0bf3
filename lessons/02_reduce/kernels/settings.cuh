// How lesson 02's versions run: the block size, the workspace of partial sums, the Launch
// settings, and the passes that v0 to v5 finish with.
#pragma once

#include <cstddef>

#include "check.hpp"
#include "device_memory.hpp"
#include "launch.hpp"

namespace lesson02 {

constexpr int kThreads = 256;  // the source's block size, kept by each version (v6's is a template)

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

}  // namespace lesson02
