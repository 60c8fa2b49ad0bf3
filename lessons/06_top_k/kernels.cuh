// Lesson 06's versions, in order, and the libraries a user would call instead. Every version
// finds the top k of the n values at `in` (device memory, int32 or float): the k largest, in
// descending order (v0: the k largest distinct ones), and v3 and v4 their indices too.
//
//   v0  the source's: one thread per value (n / 256 blocks), per-thread insertion lists, a tree of
//       O(k^2) merges in a static shared array with two barriers per step, a second launch of one
//       block; managed memory
//   v1  the source's open question: an O(k) two-pointer merge of sorted lists, and duplicates kept,
//       on 32 blocks
//   v2  the lists in dynamic shared memory, opted in past 48 KiB: the source's wall moves
//   v3  radix select: a histogram of the top digit, the bucket that holds the k-th value, its
//       keys kept as candidates for the next digit; then the k survivors sorted
//   v4  for k <= 32: each warp keeps its top 32 in registers, one per lane, merged by bitonic
//       steps over shuffles, in one pass and one launch
//   v5  one read of the input: a sample sets a threshold just below the k-th largest key, one pass
//       keeps the keys above it, and radix select works on those (v3 over the input if the sample
//       misjudged)
//   CUB / Thrust  a full sort of (value, index) pairs, descending, then the first k
//
// Each version lives in kernels/, read in this order: settings.cuh, v0_source.cuh, v1_v2_merge.cuh,
// streaming.cuh (what v3 to v5 share), v3_choose_and_sift.cuh and v3_radix_select.cuh,
// v4_warp_select.cuh, v5_sampled_filter.cuh, workspace.cuh (each version's workspace put together,
// and each version run on it) and libraries.cuh. This file lists the versions for the program and
// the tests.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "kernels/settings.cuh"
#include "kernels/v0_source.cuh"
#include "kernels/v1_v2_merge.cuh"
#include "kernels/v3_choose_and_sift.cuh"
#include "kernels/v3_radix_select.cuh"
#include "kernels/v4_warp_select.cuh"
#include "kernels/v5_sampled_filter.cuh"
#include "kernels/workspace.cuh"
#include "kind.hpp"

#include "kernels/libraries.cuh"

namespace lesson06 {

template <typename T>
struct Version {
  const char* name;
  const char* idea;
  bool distinct;  // the k largest distinct values (the source's meaning)
  bool indices;   // returns the index of each value
  // "" when the version takes n and k (with these launch settings); otherwise why not.
  std::string (*limit)(std::size_t n, std::size_t k, const Launch& launch);
  void (*run)(const T* in, std::size_t n, std::size_t k, T* values, std::size_t* indices,
              Workspace<T>& ws);
  course::Kind kind = course::Kind::course;
};

template <typename T>
const std::vector<Version<T>>& versions() {
  static const std::vector<Version<T>> all = {
      {"v0", "source: a thread per value, insertion lists, O(k^2) merges, distinct", true, false,
       source_limit, top_k_v0<T>, course::Kind::source},
      {"v1", "32 blocks, O(k) two-pointer merge, duplicates kept", false, false, v1_limit,
       top_k_v1<T>},
      {"v2", "lists in dynamic shared memory, opt-in past 48 KiB", false, false, v2_limit,
       top_k_v2<T>},
      {"v3", "radix select: 3 digits, then sort the k", false, true, v3_limit, top_k_v3<T>},
      {"v4", "k <= 32: a warp's top 32 in registers, 1 pass", false, true, v4_limit, top_k_v4<T>},
      {"v5", "a sampled threshold, 1 pass keeps the few above", false, true, v5_limit, top_k_v5<T>},
  };
  return all;
}

}  // namespace lesson06
