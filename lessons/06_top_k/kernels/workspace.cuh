// Lesson 06's versions on one workspace. Each version owns its workspace (SourceLists, MergeLists,
// SelectSpace, WarpLists); this file holds them side by side, and runs each version on it.
#pragma once

#include <cstddef>

#include "settings.cuh"
#include "v0_source.cuh"
#include "v1_v2_merge.cuh"
#include "v3_radix_select.cuh"
#include "v4_warp_select.cuh"
#include "v5_sampled_filter.cuh"

namespace lesson06 {

// Every version's workspace, allocated once for a given n, k and launch, outside the timed runs.
template <typename T>
struct Workspace {
  Workspace(std::size_t n, std::size_t k, const Launch& launch_)
      : launch(launch_), merge(k, launch_), select(n, k) {}
  Launch launch;
  SourceLists<T> source;  // v0 (grown by a launch with more blocks)
  MergeLists<T> merge;    // v1, v2
  SelectSpace select;     // v3, v5
  WarpLists warp;         // v4
};

// Each version on the workspace: the signature the list in kernels.cuh and the tests share.
template <typename T>
void top_k_v0(const T* in, std::size_t n, std::size_t k, T* values, std::size_t*,
              Workspace<T>& ws) {
  top_k_v0(in, n, k, values, ws.source, ws.launch);
}

template <typename T>
void top_k_v1(const T* in, std::size_t n, std::size_t k, T* values, std::size_t*,
              Workspace<T>& ws) {
  top_k_merge<T, false>(in, n, k, values, ws.merge, ws.launch);
}

template <typename T>
void top_k_v2(const T* in, std::size_t n, std::size_t k, T* values, std::size_t*,
              Workspace<T>& ws) {
  top_k_merge<T, true>(in, n, k, values, ws.merge, ws.launch);
}

template <typename T>
void top_k_v3(const T* in, std::size_t n, std::size_t k, T* values, std::size_t* indices,
              Workspace<T>& ws) {
  top_k_v3(in, n, k, values, indices, ws.select, ws.launch);
}

// v3 with its winners sorted as `how` says (the --k-sweep and the tests compare the two ways).
template <typename T>
void top_k_radix_select(const T* in, std::size_t n, std::size_t k, T* values, std::size_t* indices,
                        Workspace<T>& ws, SurvivorSort how) {
  top_k_v3(in, n, k, values, indices, ws.select, ws.launch, how);
}

template <typename T>
void top_k_v4(const T* in, std::size_t n, std::size_t k, T* values, std::size_t* indices,
              Workspace<T>& ws) {
  top_k_v4(in, n, k, values, indices, ws.warp, ws.launch);
}

template <typename T>
void top_k_v5(const T* in, std::size_t n, std::size_t k, T* values, std::size_t* indices,
              Workspace<T>& ws) {
  top_k_v5(in, n, k, values, indices, ws.select, ws.launch);
}

}  // namespace lesson06
