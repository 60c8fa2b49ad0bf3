// v0 to v2: the source's first three reductions (reduce0 to reduce2), a tree in shared memory whose
// threads are addressed in three ways: interleaved, by strided index, sequentially.
#pragma once

#include <cstddef>

#include "launch.hpp"
#include "settings.cuh"

namespace lesson02 {

// v0 interleaved addressing (the source's reduce0): at step s, thread t adds element t + s to
// element t when t is a multiple of 2s. Active threads are scattered over every warp, so the
// warps diverge, and % is a slow instruction. Each block writes its partial sum.
template <typename T>
__global__ void interleaved_kernel(const T* in, std::size_t n, T* out) {
  __shared__ T cache[kThreads];
  const unsigned int tid = threadIdx.x;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + tid;
  cache[tid] = i < n ? in[i] : T(0);  // the source assumed n % 256 == 0; any n works with this
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) cache[tid] += cache[tid + s];
    __syncthreads();  // this step's sums are in before the next step reads them
  }
  if (tid == 0) out[blockIdx.x] = cache[0];
}

template <typename T>
void reduce_interleaved(const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch) {
  reduce_in_passes(interleaved_kernel<T>, kThreads, in, n, result, ws, launch);
}

// ---- v1 -----------------------------------------------------------------------------------------

// v1 strided index (the source's reduce1): thread t works on element 2 s t, so the active threads
// are the first ones of the block and whole warps retire together (v0: scattered over all
// warps). But the elements a warp touches are 2s apart: at s = 16, its 32 lanes hit the same
// two shared-memory banks.
template <typename T>
__global__ void strided_index_kernel(const T* in, std::size_t n, T* out) {
  __shared__ T cache[kThreads];
  const unsigned int tid = threadIdx.x;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + tid;
  cache[tid] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    const unsigned int index = 2 * s * tid;
    if (index < blockDim.x) cache[index] += cache[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = cache[0];
}

template <typename T>
void reduce_strided_index(const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch) {
  reduce_in_passes(strided_index_kernel<T>, kThreads, in, n, result, ws, launch);
}

// ---- v2 -----------------------------------------------------------------------------------------

// v2 sequential addressing (the source's reduce2): at each step the first s threads add the
// element s further on, s = 128, 64, ..., 1. A warp's lanes read 32 consecutive elements, 32
// different banks (v1: 2s apart, the same few banks). kBoundsChecked = false is the source's load,
// for n a multiple of the block size only: main.cu times both, to show what the check costs.
template <typename T, bool kBoundsChecked = true>
__global__ void sequential_kernel(const T* in, std::size_t n, T* out) {
  __shared__ T cache[kThreads];
  const unsigned int tid = threadIdx.x;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + tid;
  cache[tid] = (!kBoundsChecked || i < n) ? in[i] : T(0);
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) cache[tid] += cache[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = cache[0];
}

template <typename T>
void reduce_sequential(const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch) {
  reduce_in_passes(sequential_kernel<T>, kThreads, in, n, result, ws, launch);
}

}  // namespace lesson02
