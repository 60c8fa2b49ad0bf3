// Grid sizes. A grid-stride kernel wants just enough blocks to fill the GPU: more only adds
// blocks that each pay the start-up and merge costs again; fewer leaves SMs, or the memory
// system, without enough work in flight.
#pragma once

#include <cstddef>

#include "check.hpp"

namespace course {

// The number of SMs of the current device.
inline int sm_count() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
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

}  // namespace course
