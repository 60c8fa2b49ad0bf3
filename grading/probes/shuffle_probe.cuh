// A probe that sees the shuffles a student's code makes: for the reduction exercises, whose point
// is a tree of shuffles, so that a tree made some other way (in registers from shared memory, in
// one warp and then broadcast, in shared memory for a warp cut short) shows.
//
// A harness includes this before the student's file. From here on, __shfl_sync, __shfl_up_sync,
// __shfl_down_sync and __shfl_xor_sync are the probed_ functions below: each makes the same
// shuffle, and, while a probe is armed, counts it against the calling thread of the grid (1-D
// blocks and grids), and counts it again if its mask names a lane past the end of the block or
// leaves out the calling lane. Armed to tamper, it also changes what each shuffle of an integer or
// a floating-point value delivers: 1 more than it should, or what the neighbouring lane (lane ^ 1)
// got instead. Code whose result comes through its shuffles then gives another result; code that
// shuffles a constant for show is changed by the first and not by the second. (A name in
// parentheses, (__shfl_sync)(...), is not a macro call: that is how the probe reaches the real
// function. A student's shuffle written so goes uncounted, and a count that is too small fails.)
// The answer check forbids #undef and inline PTX.
#pragma once

#include <cuda_bf16.h>  // their own __shfl_*_sync overloads are declared before the macros below
#include <cuda_fp16.h>

#include <cstddef>
#include <type_traits>
#include <vector>

#include "harness.hpp"
#include "tamper.hpp"

namespace grading {

struct ShuffleProbe {
  unsigned* shuffles = nullptr;     // per thread of the grid; null: not probing
  unsigned* stray_masks = nullptr;  // per thread of the grid
  Tamper tamper = Tamper::none;
};

// In constant memory: read before every shuffle of every kernel of the harness, armed or not.
__constant__ ShuffleProbe g_shuffle_probe;

__device__ inline void count_shuffle(unsigned mask) {
  const ShuffleProbe probe = g_shuffle_probe;
  if (probe.shuffles == nullptr) return;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  ++probe.shuffles[i];  // the thread's own counter: no other thread adds to it
  const unsigned first = threadIdx.x / 32 * 32;
  const unsigned lanes = blockDim.x - first < 32 ? blockDim.x - first : 32;
  const unsigned there = lanes == 32 ? 0xFFFFFFFFu : (1u << lanes) - 1;
  if ((mask & ~there) != 0 || (mask & (1u << threadIdx.x % 32)) == 0) ++probe.stray_masks[i];
}

// What a shuffle with this mask delivers: its value, or the value changed as the probe's tamper
// mode says. Every lane of the mask calls this (a shuffle's lanes all do), so the swap's own
// shuffle is a whole-mask one; a lane whose neighbour is not in the mask keeps its value.
template <typename T>
__device__ T delivered(unsigned mask, T value) {
  if constexpr (std::is_integral<T>::value || std::is_floating_point<T>::value) {
    const Tamper tamper = g_shuffle_probe.tamper;
    if (tamper == Tamper::plus_one) return static_cast<T>(value + static_cast<T>(1));
    if (tamper == Tamper::swap_pairs) {
      const T theirs = (__shfl_xor_sync)(mask, value, 1);
      return (mask >> ((threadIdx.x % 32) ^ 1u)) & 1u ? theirs : value;
    }
  }
  return value;
}

// In the build that the compiled-code check reads (GRADING_SASS), the same functions (so that an
// answer's code means the same in both builds) make the shuffle alone, with nothing of the
// probe's around it.
template <typename T>
__device__ T probed_shfl_sync(unsigned mask, T var, int lane, int width = 32) {
#ifndef GRADING_SASS
  count_shuffle(mask);
  return delivered(mask, (__shfl_sync)(mask, var, lane, width));
#else
  return (__shfl_sync)(mask, var, lane, width);
#endif
}
template <typename T>
__device__ T probed_shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32) {
#ifndef GRADING_SASS
  count_shuffle(mask);
  return delivered(mask, (__shfl_up_sync)(mask, var, delta, width));
#else
  return (__shfl_up_sync)(mask, var, delta, width);
#endif
}
template <typename T>
__device__ T probed_shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32) {
#ifndef GRADING_SASS
  count_shuffle(mask);
  return delivered(mask, (__shfl_down_sync)(mask, var, delta, width));
#else
  return (__shfl_down_sync)(mask, var, delta, width);
#endif
}
template <typename T>
__device__ T probed_shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32) {
#ifndef GRADING_SASS
  count_shuffle(mask);
  return delivered(mask, (__shfl_xor_sync)(mask, var, lane_mask, width));
#else
  return (__shfl_xor_sync)(mask, var, lane_mask, width);
#endif
}

// What the probe saw, per thread of the grid.
struct ShuffleCounts {
  std::vector<unsigned> shuffles;
  std::vector<unsigned> stray_masks;
};

// Runs launch() (a kernel of `threads` threads in all) once with the probe armed (and tampering,
// as `tamper` says), under the watchdog, and returns what each thread's shuffles were.
template <typename Launch>
ShuffleCounts probe_shuffles(std::size_t threads, Launch&& launch, Tamper tamper = Tamper::none) {
  course::DeviceBuffer<unsigned> shuffles(threads);
  course::DeviceBuffer<unsigned> strays(threads);
  shuffles.fill_bytes(0);
  strays.fill_bytes(0);
  ShuffleProbe probe{shuffles.data(), strays.data(), tamper};
  CUDA_CHECK(cudaMemcpyToSymbol(g_shuffle_probe, &probe, sizeof probe));
  watched(launch);
  probe = ShuffleProbe{};
  CUDA_CHECK(cudaMemcpyToSymbol(g_shuffle_probe, &probe, sizeof probe));
  return {shuffles.download(), strays.download()};
}

}  // namespace grading

// The same in the build that the compiled-code check reads (GRADING_SASS): there the functions make
// the answer's shuffles alone.
#define __shfl_sync(...) ::grading::probed_shfl_sync(__VA_ARGS__)
#define __shfl_up_sync(...) ::grading::probed_shfl_up_sync(__VA_ARGS__)
#define __shfl_down_sync(...) ::grading::probed_shfl_down_sync(__VA_ARGS__)
#define __shfl_xor_sync(...) ::grading::probed_shfl_xor_sync(__VA_ARGS__)
