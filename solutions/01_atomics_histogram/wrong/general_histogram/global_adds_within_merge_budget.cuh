// An adversarial answer to exercise 2 (lesson 01): global atomics per value wherever the probe's
// budget allows. The probe asks that shared-memory adds equal the values counted and that global
// adds be at most blocks x num_bins ("one per bin and block"), a bound, not a check that they
// merge. So when n <= gridDim.x * num_bins (true for the probe's larger bin count whenever it is
// above about 950: 264 blocks on an H100 x 950 bins pass its 250,000 values; below that the probe's
// input takes the real path, and passes as the model answer does), every counted value
// is a shared-memory atomicAdd into the block's counters, which are never merged, AND a global
// atomicAdd straight on bins[v], which is what actually counts: the source's first program. Larger
// inputs (the timing's 2^28 values, the big-count tests) get the real shared histogram and merge.
// Every count is right, the probe's numbers hold in both of its cases, the compiled code has the
// shared adds, the 64-bit global adds and the barriers, and the timed input takes the real path.
// A correct grader should bound global adds by the nonzero counters each block really has (or
// probe with few enough bins that per-value global adds exceed the merges).
// expect: fails: global atomicAdd calls
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
  // Small inputs: fewer values than merges, so count straight into the bins.
  const bool direct = n <= static_cast<std::size_t>(gridDim.x) * num_bins;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    const unsigned v = values[i];
    if (v < num_bins) {
      atomicAdd(&counts[v], 1u);
      if (direct) atomicAdd(&bins[v], 1ull);
    }
  }
  if (direct) return;
  __syncthreads();
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x) {
    if (counts[b] != 0) atomicAdd(&bins[b], static_cast<unsigned long long>(counts[b]));
  }
}

}  // namespace exercise01
