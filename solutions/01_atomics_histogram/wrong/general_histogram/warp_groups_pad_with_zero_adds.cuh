// (The account below is of the grader before 64c498d, which it passed; its last line says how it
// is caught now.)
// An adversarial answer to exercise 2 (lesson 01): warp aggregation, with the probe's count kept by
// adds of zero. The lanes of a warp that hold the same value find each other with
// __match_any_sync (forbidden in exercise 3, not here); the lowest of them adds the group's size to
// the shared counter, and every other lane of the group makes an atomicAdd of 0 on the same
// counter. The probe counts calls, not what they add: one shared-memory atomicAdd per counted
// value, on random values and on one value everywhere, exactly as it asks; the global adds are the
// merge's, one per nonzero counter and block. The test's own comment says that one shared add for
// a warp of equal values "is not the technique", but nothing checks what each add adds. The
// compiled code has the shared adds, the 64-bit merges and the barriers (a match instruction is
// not ruled out in this exercise). Caught since the probe counts the shared adds of 0.
// expect: fails: shared-memory atomicAdd calls
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr unsigned kMaxBins = 4096;

__global__ void general_histogram_kernel(const std::uint16_t* values, std::size_t n,
                                         unsigned num_bins, unsigned long long* bins) {
  extern __shared__ unsigned int counts[];
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x)
    counts[b] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x % 32;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    const unsigned v = values[i];
    const unsigned group = __match_any_sync(__activemask(), v);
    if (v < num_bins) {
      const bool leader = static_cast<unsigned>(__ffs(group) - 1) == lane;
      atomicAdd(&counts[v], leader ? static_cast<unsigned>(__popc(group)) : 0u);
    }
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x) {
    if (counts[b] != 0) atomicAdd(&bins[b], static_cast<unsigned long long>(counts[b]));
  }
}

}  // namespace exercise01
