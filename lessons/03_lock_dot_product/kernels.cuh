// Lesson 03: the dot product of two float arrays, finished on the GPU. Its versions, in order, and
// the library a user would call instead. Each version changes one idea.
//
// Every host function computes sum a[i] b[i] over the n elements at a and b (device memory, any n
// >= 1) and writes the result to *c (device memory), enqueuing all its work on launch.stream.
// The blocks compute partial sums; the versions differ in how those become one number: under a
// lock (v0, v1a, v1b), by atomicAdd (v2), or by a fixed-order sum of stored partials (v3, v4).
//
//   v0   the source's lock: atomicCAS, no fence; 32 blocks
//   v1a  a correct lock (acquire, release); the full grid
//   v1b  the lock holder adds the waiting blocks' sums
//   v2   float atomicAdd finishes
//   v3   deterministic: stored sums, a second launch adds them in order
//   v4   16-byte loads, shuffles, and the last block adds, in one launch
//   cuBLAS  cublasSdot
//
// Each version lives in kernels/, read in this order: lock.cuh (beside this file: the two locks,
// which lesson 04 includes as <03_lock_dot_product/lock.cuh>), settings.cuh, v0_v1a_lock.cuh,
// v1b_combining_lock.cuh, v2_atomic_add.cuh, v3_two_pass.cuh, v4_near_bandwidth.cuh and
// library.cuh. This file lists the versions for the program and the tests.
#pragma once

#include <cstddef>
#include <vector>

#include "kernels/library.cuh"
#include "kernels/settings.cuh"
#include "kernels/v0_v1a_lock.cuh"
#include "kernels/v1b_combining_lock.cuh"
#include "kernels/v2_atomic_add.cuh"
#include "kernels/v3_two_pass.cuh"
#include "kernels/v4_near_bandwidth.cuh"
#include "kind.hpp"
#include "reference.hpp"

namespace lesson03 {

using Run = void (*)(const float* a, const float* b, std::size_t n, float* c, Workspace& ws,
                     Launch launch);

struct Version {
  const char* name;
  const char* idea;
  Run run;
  int (*grid)(std::size_t n);  // its default grid
  int threads_per_block;
  course::Kind kind = course::Kind::course;
};

inline std::vector<Version> versions() {
  return {
      {"v0", "the source's lock: atomicCAS, no fence; 32 blocks", dot_source_lock<>, source_grid,
       kThreads, course::Kind::source},
      {"v1a", "a correct lock (acquire, release); full grid", dot_lock, full_grid, kThreads},
      {"v1b", "the lock holder adds the waiting blocks' sums", dot_combining_lock, full_grid,
       kThreads},
      {"v2", "float atomicAdd finishes", dot_atomic_add, full_grid, kThreads},
      {"v3", "deterministic: stored sums, a second launch adds", dot_two_pass, full_grid, kThreads},
      {"v4", "16-byte loads, shuffles, last block adds", dot_near_bandwidth, near_bandwidth_grid,
       kBigBlock},
  };
}

// The shape of a version's computation, for its error bound (reference.hpp).
inline Shape shape_of(const Version& v, std::size_t n, int blocks = 0) {
  const int grid = blocks > 0 ? blocks : v.grid(n);
  return Shape{static_cast<std::size_t>(grid) * static_cast<std::size_t>(v.threads_per_block),
               static_cast<std::size_t>(grid)};
}

}  // namespace lesson03
