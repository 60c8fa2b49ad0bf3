// How lesson 05's GPU versions are launched: the block size of the odd-even versions, the stream,
// and the sizes past which the quadratic versions are not run.
#pragma once

#include <cstddef>
#include <stdexcept>

#include "../reference.hpp"
#include "check.hpp"

namespace lesson05 {

struct Launch {
  cudaStream_t stream = nullptr;
  int threads = kSourceThreads;  // block size of v0 to v3; v2's and v3's segment is twice this
  // GPU memory v9 may use (v9_scratch_bytes); with less, v9 allocates its own for the call.
  void* scratch = nullptr;
  std::size_t scratch_bytes = 0;
};

using Run = void (*)(const float* in, float* out, std::size_t n, const Launch& launch);

inline void require_threads(const Launch& launch) {
  if (launch.threads < 32 || launch.threads > 1024 || launch.threads % 32 != 0) {
    throw std::invalid_argument("threads must be a multiple of 32 from 32 to 1024");
  }
}

// The quadratic versions stop somewhere: past these sizes one run takes seconds (--sweep).
constexpr std::size_t kOneBlockMaxN = std::size_t{1} << 17;
constexpr std::size_t kMultiBlockMaxN = std::size_t{1} << 21;

}  // namespace lesson05
