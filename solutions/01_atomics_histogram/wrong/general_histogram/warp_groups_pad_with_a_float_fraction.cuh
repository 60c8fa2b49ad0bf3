// An adversarial answer to exercise 2 (lesson 01): warp aggregation dressed as one add per value,
// with padding the probe cannot tell from counting. The lanes of a warp that hold the same counted
// value find each other with __match_any_sync (not forbidden here); the lowest of them adds the
// group's size to the value's 32-bit counter, and every other lane makes an atomicAdd of the float
// 2^-60 on a float word of its own (one a thread: a static __shared__ array beside the counters).
// The probe judges an add by its value converted to the counter's type, here float: 2^-60 is not
// 0, so it is not counted as a shared add of 0; and it sums what each word is added as unsigned
// long long, to which 2^-60 converts as 0: the pad words total 0, which is what the check asks of
// every word outside the num_bins counters. So the probe sees one shared add per counted value,
// none of 0, word totals that are the histogram in num_bins words side by side, and merges of
// counts; but on one value everywhere a warp makes one real add of 32 and 31 pads.
// Why each test passes:
// - Every test case's check_technique: shared adds == the counted values (every lane whose value
//   is below num_bins makes exactly one add: its group's size if it leads, a pad if not); shared
//   adds of 0: none (the group sizes are 1 to 32, the pads 2^-60f); global adds: one per nonzero
//   counter and block, as the model's; word totals: the counters' words total the histogram (the
//   leaders' sizes add up to the counted values of each bin, summed over blocks), and the pad words
//   total 0.
// - The counts: the counters are unsigned and only the leaders add to them, exact (every block
//   counts fewer than 2^32), merged as 64-bit adds: exact at every size, past 65,535 a block and
//   past 2^32 in a bin. The loop steps a warp at a time (every existing lane of a warp runs the
//   same iterations), and the match's mask names only the lanes a short last warp has, so any block
//   size from 1 to 1024 works.
// - One value everywhere: at most one global add of 1 a block, as the model's (the merges add
//   counts, not 1 per value).
// - The compiled code: atom.shared.add.u32 and atom.shared.add.f32 (both plain shared adds; the
//   rule forbids only shared atomics other than an add), red.global.add.u64, bar.sync; no generic
//   atomic (both arrays are __shared__ in the kernel).
// - Time: on the timed 2^28 random values over 4,352 (4,096 bins) nearly every group is one lane,
//   which adds 1 to its counter as the model does; a match per warp step adds a little to a loop
//   that waits on its loads: well within the factor of 2.
// A correct grader should count an add whose value is not a positive whole number of the
// counter's units as padding (or ask that every shared add add exactly 1), or sum the word totals
// in the counter's own type, where 2^-60 shows as not 0.
// Caught: the probe now calls any add that is not a whole count of 1 or more padding.
// expect: fails: shared-memory atomicAdd calls that added 0
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr unsigned kMaxBins = 4096;

__global__ void general_histogram_kernel(const std::uint16_t* values, std::size_t n,
                                         unsigned num_bins, unsigned long long* bins) {
  extern __shared__ unsigned int counts[];
  __shared__ float pads[1024];  // a word per thread; every add to it is 2^-60, 0 as a whole number
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x)
    counts[b] = 0;
  pads[threadIdx.x] = 0.0f;
  __syncthreads();
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp_first = threadIdx.x - lane;
  const unsigned lanes = blockDim.x - warp_first < 32 ? blockDim.x - warp_first : 32;
  const unsigned mask = lanes == 32 ? 0xFFFFFFFFu : (1u << lanes) - 1u;
  const float pad = 0x1p-60f;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t base = blockIdx.x * static_cast<std::size_t>(blockDim.x) + warp_first; base < n;
       base += stride) {
    const std::size_t i = base + lane;
    const unsigned v = i < n ? values[i] : num_bins;  // num_bins and above: not counted
    const unsigned peers = __match_any_sync(mask, v);
    if (v < num_bins) {
      if (lane == static_cast<unsigned>(__ffs(peers) - 1)) {
        atomicAdd(&counts[v], static_cast<unsigned>(__popc(peers)));
      } else {
        atomicAdd(&pads[threadIdx.x], pad);
      }
    }
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x) {
    if (counts[b] != 0) atomicAdd(&bins[b], static_cast<unsigned long long>(counts[b]));
  }
}

}  // namespace exercise01
