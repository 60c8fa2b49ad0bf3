// Lesson 02: the sum of n numbers (int or float). Its versions, in order, and the library a user
// would call instead. Each version changes one idea.
//
// Every host function sums the n elements at `in` (device memory, any alignment, any n >= 1) and
// writes the one result to `*result` (device memory), enqueuing all its launches on
// launch.stream. v0 to v5 compute one partial sum per block, then run again on those partial
// sums until one is left ("passes"); v6 needs two launches, v7 one.
//
//   v0  interleaved addressing (the source's reduce0)
//   v1  strided index (reduce1): the active threads are contiguous
//   v2  sequential addressing (reduce2): no shared-memory bank conflicts
//   v3  the first add during the load: half the blocks
//   v4  the last warp unrolled, with __syncwarp()
//   v5  warp shuffles (block_reduce.cuh's warp_sum and block_sum)
//   v6  many elements per thread from a grid that fills the GPU, 16-byte loads; two launches
//   v7  one launch: the last block to finish adds up the partial sums
//   CUB  cub::DeviceReduce::Sum
//
// Each version lives in kernels/, read in this order: settings.cuh, v0_v2_addressing.cuh,
// v3_v4_first_add_last_warp.cuh, block_reduce.cuh (beside this file: v5's building blocks, which
// other lessons include as <02_reduce/block_reduce.cuh>), v5_shuffle.cuh, v6_v7_grid_stride.cuh
// and library.cuh. This file lists the versions for the program and the tests.
#pragma once

#include <cstddef>
#include <vector>

#include "kernels/library.cuh"
#include "kernels/settings.cuh"
#include "kernels/v0_v2_addressing.cuh"
#include "kernels/v3_v4_first_add_last_warp.cuh"
#include "kernels/v5_shuffle.cuh"
#include "kernels/v6_v7_grid_stride.cuh"
#include "kind.hpp"

namespace lesson02 {

template <typename T>
using Run = void (*)(const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch);

template <typename T>
struct Version {
  const char* name;
  const char* idea;
  const char* finish;  // how the one result is reached
  Run<T> run;
  course::Kind kind = course::Kind::course;
};

template <typename T>
std::vector<Version<T>> versions() {
  return {
      {"v0", "interleaved addressing (reduce0)", "passes", reduce_interleaved<T>,
       course::Kind::source},
      {"v1", "strided index (reduce1)", "passes", reduce_strided_index<T>},
      {"v2", "sequential addressing (reduce2)", "passes", reduce_sequential<T>},
      {"v3", "first add during the load", "passes", reduce_first_add<T>},
      {"v4", "last warp unrolled, with __syncwarp", "passes", reduce_last_warp<T>},
      {"v5", "warp shuffles", "passes", reduce_shuffle<T>},
      {"v6", "many elements per thread, 16-byte loads", "2 launches",
       [](const T* in, std::size_t n, T* result, Workspace<T>& ws, Launch launch) {
         reduce_grid_stride<T>(in, n, result, ws, launch);
       }},
      {"v7", "one launch, the last block finishes", "1 launch", reduce_one_launch<T>},
  };
}

}  // namespace lesson02
