// An adversarial answer to exercise 1 (lesson 02): one warp does the whole block's work, in the
// exercise's exact order of additions, so that nothing but the clock could tell it from the model
// answer. Warp 0 makes all 1,024 loads of its block (32 a lane, every one independent, all in
// flight at once, each a coalesced 128-byte line for ints and floats), computes the 256 sums of
// four that threads 0 to 255 should have made (thread t's elements t, t + 256, t + 512, t + 768,
// added to T(0) in that order) and stores them in the shared array; one barrier, which the other
// seven warps reach at once and then leave; then warp 0 alone walks reduce2's tree,
// cache[t] += cache[t + s] for s = 128 down to 1, each lane taking t = lane, lane + 32, ..., with
// __syncwarp between the steps instead of a barrier of the block. Seven of eight threads load and
// add nothing. No type is keyed on: int, float and the traced type all run this.
//   - "four adds during the load sum ints exactly": every element of the block, once.
//   - "each block adds its elements once, four during the load, then a tree": the traced type
//     sees exactly the model's additions (0 + four elements, then 8 tree steps: 12 on the longest
//     path), because they are the model's additions; the trace does not record which thread made
//     them.
//   - "whole-number floats" and "float sums add up in the tree's order, bit for bit": the same
//     additions in the same order as exercise_order_sum, so the same bits.
//   - "past 2^31 and 2^32": every index is a std::size_t.
//   - compiled code (int and float): st.shared (the sums of four), ld.shared (the tree), bar.sync
//     (the one barrier); no shfl, redux, atom or red (__syncwarp is bar.warp.sync).
//   - time: the model answer's loads are 256 threads x 4 a block; here 32 lanes x 32, the same 32
//     warp-wide load instructions a block and the same bytes in flight per resident block (about
//     40 registers a thread still lets 6 blocks of 256 threads live on an SM, 24 KB of loads in
//     flight per SM against the model's 32 KB, above what HBM3 needs at its latency), and the tree
//     without eight block barriers. The sum of 2^30 ints stays memory-bound: expected within 1.5
//     times the model answer's, well inside 3.
// A correct grader should see which threads do the work: e.g. give the traced type the thread that
// made each addition during the load (a per-block bit set of threadIdx.x, kept in a device array of
// the harness) and require all 256 threads of a full block to have added, or count the adds per
// thread as the atomic probe does.
// Caught: the traced type now counts each thread's additions; in a full block every thread must
// make 3 or more (its four elements) and at most 12.
// expect: fails: the fewest additions a thread made
#pragma once

#include <cstddef>

namespace exercise02 {

constexpr int kFirstAddThreads = 256;
constexpr int kLoadsPerThread = 4;

// Writes to block_sums[blockIdx.x] the sum of the kLoadsPerThread * blockDim.x elements of
// in[0, n) that start at blockIdx.x * kLoadsPerThread * blockDim.x (elements past n count as
// zero). blockDim.x == kFirstAddThreads. T is any type with + and +=, whose zero is T(0).
template <typename T>
__global__ void first_add_kernel(const T* in, std::size_t n, T* block_sums) {
  constexpr int kWarp = 32;
  constexpr int kSumsPerLane = kFirstAddThreads / kWarp;         // 8 threads' sums a lane
  constexpr int kLoadsPerLane = kSumsPerLane * kLoadsPerThread;  // 32 loads a lane
  constexpr int kPerBlock = kLoadsPerThread * kFirstAddThreads;  // 1,024 elements a block
  __shared__ T cache[kFirstAddThreads];
  const unsigned int lane = threadIdx.x % kWarp;
  const std::size_t base = blockIdx.x * static_cast<std::size_t>(kPerBlock);
  if (threadIdx.x < kWarp) {
    // Thread t = lane + 32 m would add elements t + 256 j, j = 0..3: element lane + 32 (m + 8 j).
    if (base + kPerBlock <= n) {
      T v[kLoadsPerLane];
#pragma unroll
      for (int k = 0; k < kLoadsPerLane; ++k)
        v[k] = in[base + lane + static_cast<std::size_t>(kWarp) * k];  // 32 loads in flight
#pragma unroll
      for (int m = 0; m < kSumsPerLane; ++m) {
        T sum = T(0);
#pragma unroll
        for (int j = 0; j < kLoadsPerThread; ++j)
          sum += v[m + kSumsPerLane * j];
        cache[lane + kWarp * m] = sum;
      }
    } else {
#pragma unroll
      for (int m = 0; m < kSumsPerLane; ++m) {
        T sum = T(0);
#pragma unroll
        for (int j = 0; j < kLoadsPerThread; ++j) {
          const std::size_t i =
              base + lane + static_cast<std::size_t>(kWarp) * (m + kSumsPerLane * j);
          if (i < n) sum += in[i];
        }
        cache[lane + kWarp * m] = sum;
      }
    }
  }
  __syncthreads();  // the block's 256 sums of four are in (the other warps leave here)
  if (threadIdx.x >= kWarp) return;
  // reduce2's tree, walked by warp 0 alone: the same additions in the same order.
  for (unsigned int s = kFirstAddThreads / 2; s > 0; s >>= 1) {
    for (unsigned int t = lane; t < s; t += kWarp)
      cache[t] += cache[t + s];
    __syncwarp();
  }
  if (lane == 0) block_sums[blockIdx.x] = cache[0];
}

}  // namespace exercise02
