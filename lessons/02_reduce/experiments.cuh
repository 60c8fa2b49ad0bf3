// Lesson 02's experiments, run after the table. print_source_range (always): what the source's NVTX
// range around an asynchronous launch measures. print_strides (--strides): coalescing, a sum of
// every s-th element of the input, s = 1, 2, 4, ..., 32. A warp's 32 loads of one step are served
// together, in 32-byte sectors: at s = 1 its 32 floats lie in 4 sectors (coalesced); at s = 8 and
// more each lane's float lies in a sector of its own, and 7/8 of every sector fetched is thrown
// away. Its table prints the useful bandwidth of each stride.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <type_traits>

#include "block_reduce.cuh"
#include "kernels.cuh"
#include "lesson.cuh"
#include "reference.hpp"

namespace lesson02 {

// The sum of in[0], in[stride], in[2 * stride], ... (count elements): a grid-stride loop with
// four loads in flight per thread (as v6 keeps two 16-byte loads in flight), so that the memory,
// not the wait for each load, sets the time; finished by the last block, as in v7. Lane j of a
// warp reads element i + j: addresses stride elements apart.
template <typename T>
__global__ void __launch_bounds__(kBigBlock)
    strided_sum_kernel(const T* in, std::size_t count, std::size_t stride, T* partials,
                       unsigned int* finished, T* result) {
  __shared__ FinishSpace<T> space;
  const std::size_t threads = course::grid_stride();
  T sum[4] = {0, 0, 0, 0};
  std::size_t i = course::first_index();
  for (; i + 3 * threads < count; i += 4 * threads) {
#pragma unroll
    for (int k = 0; k < 4; ++k)
      sum[k] += in[(i + k * threads) * stride];
  }
  for (; i < count; i += threads)
    sum[0] += in[i * stride];
  const T total = (sum[0] + sum[1]) + (sum[2] + sum[3]);
  finish_in_last_block(block_sum(total, space.slots), partials, finished, result, space);
}

template <typename T>
void sum_strided(const T* in, std::size_t count, std::size_t stride, T* result, Workspace<T>& ws) {
  static const int grid = course::occupancy_grid(strided_sum_kernel<T>, kBigBlock);
  strided_sum_kernel<T>
      <<<grid, kBigBlock>>>(in, count, stride, ws.partials(0), ws.finished_blocks(), result);
  CUDA_CHECK_LAUNCH();
}

// The source's NVTX range: pushed, v0's first pass launched, popped. A launch returns as soon as
// the kernel is queued, so the range closes before the kernel has begun. Prints how long that range
// lasted on the host clock, when the kernel was done, and how long a range lasts that closes after
// cudaDeviceSynchronize(); on an nsys timeline, the two ranges are named as here.
template <typename T>
void print_source_range(const T* in, std::size_t n, T* partials) {
  const unsigned blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  const auto launch = [&] {
    interleaved_kernel<T><<<blocks, kThreads>>>(in, n, partials);
    CUDA_CHECK_LAUNCH();
  };
  const auto ms_since = [](std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  };
  launch();  // a warm-up, so that neither range pays for loading the kernel
  CUDA_CHECK(cudaDeviceSynchronize());
  auto start = std::chrono::steady_clock::now();
  double range_ms = 0;
  {
    course::NvtxRange range("the source's range: push, launch v0's first pass, pop");
    launch();
    range_ms = ms_since(start);
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  const double done_ms = ms_since(start);
  start = std::chrono::steady_clock::now();
  double closed_ms = 0;
  {
    course::NvtxRange range("a range closed after cudaDeviceSynchronize()");
    launch();
    CUDA_CHECK(cudaDeviceSynchronize());
    closed_ms = ms_since(start);
  }
  std::printf(
      "the source's NVTX range around v0's first pass (push, launch, pop) lasted %.4f ms on the "
      "host clock;\nthe kernel was done %.4f ms after the push; a range closed after "
      "cudaDeviceSynchronize() lasted %.4f ms\n\n",
      range_ms, done_ms, closed_ms);
}

// The 32-byte sectors that one warp's load of one step touches, at this stride.
template <typename T>
std::size_t sectors_per_warp_load(std::size_t stride) {
  constexpr std::size_t kSector = 32;
  const std::size_t span = stride * sizeof(T) * course::kWarpSize;  // bytes from lane 0 to past 31
  return std::min<std::size_t>(course::kWarpSize, (span + kSector - 1) / kSector);
}

// Times the strided sum at each stride on `d_in` (the n elements of `input`), checks each result
// against the CPU's and prints the table. Returns whether every check passed.
template <typename T>
bool print_strides(course::Lesson& lesson, const std::vector<T>& input, const T* d_in,
                   Workspace<T>& ws, double copy_gbps) {
  const std::size_t n = input.size();
  course::DeviceBuffer<T> d_result(1);
  std::printf(
      "\ncoalescing: the sum of every s-th %s of the input (n = %zu, %.0f MiB), one %zu-byte "
      "load per element;\nuseful GB/s counts only the elements summed; sectors per warp: the "
      "32-byte sectors one warp's 32 loads touch\n",
      std::is_integral<T>::value ? "int" : "float", n,
      static_cast<double>(n * sizeof(T)) / (1 << 20), sizeof(T));
  std::printf("%7s %13s %17s %10s %12s %10s  %s\n", "stride", "elements", "sectors per warp", "ms",
              "useful GB/s", "% of copy", "check");
  bool all_ok = true;
  for (std::size_t stride = 1; stride <= 32; stride *= 2) {
    const std::size_t count = (n + stride - 1) / stride;
    Wide<T> expected = 0;
    Wide<T> magnitudes = 0;
    for (std::size_t i = 0; i < count; ++i) {
      expected += static_cast<Wide<T>>(input[i * stride]);
      magnitudes +=
          static_cast<Wide<T>>(input[i * stride] < 0 ? -input[i * stride] : input[i * stride]);
    }
    const double bound = std::is_integral<T>::value
                             ? 0.0
                             : float_error_bound(count, static_cast<double>(magnitudes));
    const std::string name = course::format("stride %zu", stride);
    const course::Outcome r = lesson.time(
        {name, "every s-th element", "",
         [&] { sum_strided(d_in, count, stride, d_result.data(), ws); },
         [&] {
           const T got = d_result.download()[0];
           return sum_ok(got, expected, bound) ? std::string() : std::string("wrong sum");
         }});
    const double gbps = static_cast<double>(count * sizeof(T)) / (r.time.median_ms * 1e6);
    std::printf("%7zu %13zu %17zu %10.4f %12.1f %9.1f%%  %s\n", stride, count,
                sectors_per_warp_load<T>(stride), r.time.median_ms, gbps, 100.0 * gbps / copy_gbps,
                r.mismatch.empty() ? "ok" : r.mismatch.c_str());
    all_ok = all_ok && r.mismatch.empty();
  }
  return all_ok;
}

}  // namespace lesson02
