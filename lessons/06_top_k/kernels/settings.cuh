// How lesson 06's GPU versions are launched: the block size and grid of v0 to v2, and the stream
// every version runs on.
#pragma once

#include "../reference.hpp"
#include "check.hpp"

namespace lesson06 {

// How to run v0 to v2 and on which stream every version runs.
struct Launch {
  cudaStream_t stream = nullptr;
  int threads = kSourceThreads;  // per block of v0 to v2: a power of two from 32 to 1024
  int blocks = 0;  // blocks of v0 to v2's first launch; 0: v0 the source's grid, v1 and v2 32
};

}  // namespace lesson06
