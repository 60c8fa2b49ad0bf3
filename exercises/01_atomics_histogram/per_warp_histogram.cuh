// Exercise 1 (lesson 01): the source's privatisation, one level further. v1 gives each block one
// private histogram in shared memory; here each warp gets its own, so the lanes that contend for a
// shared counter are only those of one warp. Write the kernel; the harness launches it with
// kThreads threads per block and two blocks per SM, on a zeroed `bins`.
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr int kBins = 256;
constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;

// Counts the n bytes at data into bins[0..255]. blockDim.x == kThreads.
__global__ void per_warp_histogram_kernel(const std::uint8_t* data, std::size_t n,
                                          unsigned long long* bins) {
  // TODO:
  //   1. a __shared__ array of kWarpsPerBlock x kBins unsigned int counters: one histogram per
  //      warp. Zero all of them (each thread zeroes several), then a barrier;
  //   2. a grid-stride loop over data[0, n) (size_t indices: n may pass 2^32) that adds 1 to the
  //      byte's counter in this thread's warp's histogram (warp threadIdx.x / 32), with one
  //      shared-memory atomicAdd per byte;
  //   3. a barrier; then thread t adds up bin t of the kWarpsPerBlock histograms with plain reads
  //      and adds the total to bins[t] with one global atomicAdd (none when the total is 0).
  (void)data;
  (void)n;
  (void)bins;
}

}  // namespace exercise01
