// v3 and v4: the first add during the load, and the last warp unrolled with __syncwarp().
#pragma once

#include <cstddef>

#include "launch.hpp"
#include "settings.cuh"

namespace lesson02 {

// v3 the first add during the load: each thread loads two elements, a block apart, and stores
// their sum, so a block covers 512 elements (v2: half the threads had nothing to do after the
// load). Half the blocks, and half the passes' work.
template <typename T>
__global__ void first_add_kernel(const T* in, std::size_t n, T* out) {
  __shared__ T cache[kThreads];
  const unsigned int tid = threadIdx.x;
  const std::size_t i = blockIdx.x * (2 * static_cast<std::size_t>(blockDim.x)) + tid;
  T sum = i < n ? in[i] : T(0);
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  cache[tid] = sum;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = cache[0];
}

template <typename T>
void reduce_first_add(const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch) {
  reduce_in_passes(first_add_kernel<T>, 2 * kThreads, in, n, result, ws, launch);
}

// ---- v4 -----------------------------------------------------------------------------------------

// v4 the last warp unrolled: once 64 sums are left, one warp finishes alone, with __syncwarp()
// between its steps instead of __syncthreads() (v3: a block-wide barrier for every step). The
// classic version dropped all barriers there and relied on a warp's lanes running in lockstep,
// through a volatile pointer; since Volta they need not, and that code can read a value before
// its lane has written it. __syncwarp() orders the lanes' shared-memory accesses explicitly.
template <typename T>
__global__ void last_warp_kernel(const T* in, std::size_t n, T* out) {
  __shared__ T cache[kThreads];
  const unsigned int tid = threadIdx.x;
  const std::size_t i = blockIdx.x * (2 * static_cast<std::size_t>(blockDim.x)) + tid;
  T sum = i < n ? in[i] : T(0);
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  cache[tid] = sum;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > course::kWarpSize; s >>= 1) {
    if (tid < s) cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if (tid < course::kWarpSize) {
    sum = cache[tid] + cache[tid + course::kWarpSize];
#pragma unroll
    for (int offset = course::kWarpSize / 2; offset > 0; offset /= 2) {
      __syncwarp();  // every lane has read before any lane overwrites
      cache[tid] = sum;
      __syncwarp();  // every lane has written before any lane reads
      sum += cache[tid + offset];
    }
    if (tid == 0) out[blockIdx.x] = sum;
  }
}

template <typename T>
void reduce_last_warp(const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch) {
  reduce_in_passes(last_warp_kernel<T>, 2 * kThreads, in, n, result, ws, launch);
}

}  // namespace lesson02
