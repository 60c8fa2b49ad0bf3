// A wrong answer to exercise 1 (lesson 01), written by an attacking reviewer and kept in unseen/
// until the probe's macro was made the same in both builds (grading/probes/atomic_probe.cuh):
// atomicAdd(Odd*, int) now compiles in the compiled-code check's build too, so that build keeps
// the tests' branch, without its barriers, and the check sees it.
// expect: compiled: a barrier
// ATTACK sfinae_build_differential (exercise 01.1, per_warp_histogram): no preprocessor at all,
// and still another kernel in the tests' build than in the PTX build the compiled-code check
// reads. The harness defines the probe's object-like macro atomicAdd -> grading_probed_atomic_add
// (a template that takes any T*) only without GRADING_SASS; in the PTX build atomicAdd is CUDA's
// overload set, which takes no pointer to a class. So whether atomicAdd(Odd*, int) is a valid
// expression (SFINAE, in a partial specialization) is a constant that differs between the two
// builds, and `if constexpr` on it compiles one branch in each. The check of the preprocessed
// code compares the answer's lines, which are the same in both builds; the compiled-code check
// sees only the PTX build's branch.
// Here, to show the mechanism, the tests' branch leaves out both barriers that the spec requires
// (bar.sync) and the PTX branch keeps them; any technique the spec forbids could stand in the
// tests' branch the same way (a name the text check refuses still cannot).
// Expected to get past: the answer check, the preprocessed check, the objects check and the
// compiled-code check (verified here); the tests and probe see the tests' branch (this one races,
// so it is a demonstration of the differential, not an answer that scores).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace exercise01 {

constexpr int kBins = 256;
constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;

namespace detail {
struct Odd {
  int x;
};
template <typename T, typename = void>
struct tests_build : std::false_type {};
template <typename T>
struct tests_build<T, std::void_t<decltype(atomicAdd(std::declval<T*>(), 1))>> : std::true_type {};
}  // namespace detail

// true in the tests' build (the probe's macro), false in the compiled-code check's PTX build.
constexpr bool kTestsBuild = detail::tests_build<detail::Odd>::value;

__global__ void per_warp_histogram_kernel(const std::uint8_t* data, std::size_t n,
                                          unsigned long long* bins) {
  __shared__ unsigned int counts[kWarpsPerBlock][kBins];
  unsigned int* mine = counts[threadIdx.x / 32];
  for (int i = threadIdx.x; i < kWarpsPerBlock * kBins; i += blockDim.x)
    counts[0][i] = 0;
  if constexpr (!kTestsBuild) __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride)
    atomicAdd(&mine[data[i]], 1u);
  if constexpr (!kTestsBuild) __syncthreads();
  unsigned long long total = 0;
  for (int w = 0; w < kWarpsPerBlock; ++w)
    total += counts[w][threadIdx.x];
  if (total != 0) atomicAdd(&bins[threadIdx.x], total);
}

}  // namespace exercise01
