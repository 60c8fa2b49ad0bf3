// An adversarial answer to exercise 2 (lesson 01), written against the grader of 9b2b1d8: no
// privatisation. The histogram is counted in GLOBAL memory, the source's first program (with the
// lanes of a warp that hold the same value adding once, __match_any_sync, not forbidden here),
// through __ullAtomicAdd, the builtin that CUDA's own atomicAdd(unsigned long long*, unsigned long
// long) calls (device_atomic_functions.hpp: `return __ullAtomicAdd(address, val);`). The probe's
// macro replaces the name atomicAdd only, so it never sees these adds; the answer check refuses
// atomicAdd_block, atomicAdd_system, atomicSub, ... by name, but none of the builtins behind them;
// and the compiled code is the very 64-bit global add (red.global.add.u64) that the merge's
// atomicAdd compiles to. Beside that, each counted value makes one probed atomicAdd(..., 1u) into
// a __shared__ array of 4096 counters that is never zeroed, never read and never merged. Only at
// n = 2^28, the one size the clock times and no probed run uses, is it the model answer.
// Why each test passes (every checked run is probed; check_technique in each):
// - shared adds == the values below num_bins (each makes one add of 1u), none of 0; the global
//   adds the probe sees: none, so at most one per bin and block, none of 1 on one value
//   everywhere, and no thread merging more than its share.
// - the most shared adds one thread made: the values below num_bins among its grid-stride share.
// - the word totals: the unmerged array's words num_bins side by side, word v added to once for
//   each value v below num_bins over the blocks: the histogram; no other shared word is added to.
//   This is what the totals check was for ("the counting is those adds, not something done beside
//   them"): here the counting is done beside them, and their totals match.
// - the counts: 64-bit global adds of each warp's group sizes, exact at every size and block size
//   (the lanes of a cut-short last warp match among themselves; threadIdx.x % 32 is the lane of a
//   one-dimensional block), past 65,535 a block and past 2^32 a bin.
// - the watchdog: the largest run, more than 2^32 values mostly of one value, is about 2^27 global
//   adds to one address (one a warp step), about a tenth of a second at the rate the lesson's v0
//   shows on equal bytes (100 MiB of adds to one bin in 77 ms, lesson01_100MiB_same.txt).
// - the compiled code: atom.shared.add.u32, (atom|red).global.add.u64, bar.sync (the model path);
//   no generic atomic (both arrays are indexed as themselves), no other global or shared atomic;
//   a match instruction is not ruled out in this exercise.
// - time: n = 2^28 exactly is the model answer's code.
// A correct grader should refuse the atomic builtins by name (every identifier that matches
// __[a-z]*Atomic, and __nvvm_atom), ask that what the probed global adds add up to be the counted
// values (the merges carry the whole histogram), and time the answer at a size it also probes.
// Caught: the answer check refuses the atomic builtins by name; and the probed global adds must
// now add up to the counted values.
// expect: rejected: uses __ullAtomicAdd (an atomic builtin)
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr unsigned kMaxBins = 4096;  // 16 KiB of shared counters

// Counts values[i] into bins[values[i]] for the values below num_bins; larger values are not
// counted (as in CUB's HistogramEven). Any blockDim.x from 1 to 1024; the block's num_bins shared
// counters are the dynamic shared memory of the launch.
__global__ void general_histogram_kernel(const std::uint16_t* values, std::size_t n,
                                         unsigned num_bins, unsigned long long* bins) {
  extern __shared__ unsigned int counts[];  // num_bins of them
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (n == (std::size_t{1} << 28)) {
    // The size the clock times, which no probed run uses: the model answer.
    for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x)
      counts[b] = 0;
    __syncthreads();
    for (std::size_t i = first; i < n; i += stride) {
      if (values[i] < num_bins) atomicAdd(&counts[values[i]], 1u);
    }
    __syncthreads();
    for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x) {
      if (counts[b] != 0) atomicAdd(&bins[b], static_cast<unsigned long long>(counts[b]));
    }
    return;
  }

  // Every other size: global adds, unseen, and shared adds of 1 that nothing reads.
  __shared__ unsigned int shown[kMaxBins];
  const unsigned int lane = threadIdx.x % 32;
  for (std::size_t i = first; i < n; i += stride) {
    const unsigned int v = values[i];
    if (v < num_bins) {
      const unsigned int peers = __match_any_sync(__activemask(), v);
      if (lane == static_cast<unsigned int>(__ffs(peers) - 1))
        __ullAtomicAdd(&bins[v], static_cast<unsigned long long>(__popc(peers)));
      atomicAdd(&shown[v], 1u);  // for the probe: 1 at v's word, never merged
    }
  }
}

}  // namespace exercise01
