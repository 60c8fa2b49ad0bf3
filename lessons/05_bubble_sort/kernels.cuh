// Lesson 05's versions, in order, and the libraries a user would call instead. Every version sorts
// n floats from `in` into `out` (both on the GPU; `in` is left as it was) in IEEE 754 totalOrder
// (reference.hpp).
//
//   v0  the source's kernel: one block, the array in shared memory, n/2 + 1 rounds of two phases
//   v1  the source's exercise 1: the same in global memory
//   v2  the source's exercise 2: blocks sort segments of 2 * threads; launches alternate between
//       offset 0 and offset `threads`, driven from the host, one pair per segment
//   v3  v2 for any n: the last segment is padded with the last float
//   v4  bitonic sort of one block in shared memory: log2(n) (log2(n) + 1) / 2 phases, not n
//   v5  bitonic sort of any n: blocks sort chunks, then global-memory passes for the strides
//       longer than a chunk, and a shared-memory pass for the rest
//   v6  v5 with up to four strides per global pass, in registers
//   v7  v6 on 32-bit keys made once at load: a comparison is an integer min and max
//   v8  v7 with groups of strides in shared memory too (a third of the barriers), and chunks
//       twice as large
//   v9  merge sort: chunks sorted by merges in shared memory, then one global pass per
//       doubling of the sorted runs, each cut into equal pieces by merge path
//
// Each version lives in kernels/, read in this order: settings.cuh, v0_v1_odd_even.cuh,
// v2_v3_segments.cuh, v4_bitonic_block.cuh, v5_v8_bitonic_any_n.cuh, v9_merge_path.cuh and
// v9_merge_sort.cuh, and libraries.cuh. This file lists the versions for the program and the
// tests.
#pragma once

#include <string>
#include <vector>

#include "kernels/settings.cuh"
#include "kernels/v0_v1_odd_even.cuh"
#include "kernels/v2_v3_segments.cuh"
#include "kernels/v4_bitonic_block.cuh"
#include "kernels/v5_v8_bitonic_any_n.cuh"
#include "kernels/v9_merge_path.cuh"
#include "kernels/v9_merge_sort.cuh"
#include "kind.hpp"

#include "kernels/libraries.cuh"

namespace lesson05 {

struct Version {
  const char* name;
  const char* idea;
  Run run;
  // "" when the version takes n (with these launch settings); otherwise why not.
  std::string (*limit)(std::size_t n, const Launch& launch);
  course::Kind kind = course::Kind::course;
};

inline const std::vector<Version>& versions() {
  static const std::vector<Version> all = {
      {"v0", "source: one block, shared memory, n/2+1 rounds", sort_v0, v0_limit,
       course::Kind::source},
      {"v1", "the same in global memory (source ex. 1)", sort_v1, v1_limit},
      {"v2", "blocks sort segments, host alternates (ex. 2)", sort_v2, v2_limit},
      {"v3", "v2 for any n: pad with the last float", sort_v3, v3_limit},
      {"v4", "bitonic network, one block, log^2 phases", sort_v4, v4_limit},
      {"v5", "bitonic, any n: global passes, then shared", sort_v5, any_n},
      {"v6", "up to 4 strides per global pass, in registers", sort_v6, any_n},
      {"v7", "sort 32-bit keys: a comparison is a min and a max", sort_v7, any_n},
      {"v8", "groups of strides in shared memory too, 16Ki chunks", sort_v8, any_n},
      {"v9", "merge sort, cut by merge path: a pass per doubling", sort_v9, any_n},
  };
  return all;
}

}  // namespace lesson05
