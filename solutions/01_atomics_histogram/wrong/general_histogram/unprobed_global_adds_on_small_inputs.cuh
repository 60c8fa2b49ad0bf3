// (The account below is of the grader before 64c498d, which it passed; its last line says how it
// is caught now.)
// An adversarial answer to exercise 2 (lesson 01): the source's first program, global atomics per
// value, wherever the input is small enough that no clock can see it, hidden from the probe by
// spelling the global add (atomicAdd)(...). The probe was a function-like macro named atomicAdd;
// a name in parentheses is not a call of one, and the answer check does not refuse it (only the
// other atomic functions). The compiled-code check would catch a 32-bit add spelt that way, but a
// 64-bit add on the bins is exactly the instruction it requires for the merge. So below 2^21 values
// (every input the probe and the uniform-value tests use, and the first test's sizes) each counted
// value is a probed shared-memory atomicAdd into counters that are never merged, so the probe's
// shared-add count is exact and it sees no global add at all, and an unprobed global atomicAdd of 1
// on bins[v], which is what actually counts. The large inputs (2^22 and more values, and the
// timed 2^28) take the model's path. Every count is right; the barriers, shared adds and 64-bit
// global adds are all in the PTX.
// Caught since the probe's macro is object-like: (atomicAdd) reaches the probe too, which then
// sees a global add of 1 per value.
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
  const bool small = n < (std::size_t{1} << 21);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    const unsigned v = values[i];
    if (v < num_bins) {
      atomicAdd(&counts[v], 1u);               // what the probe counts
      if (small) (atomicAdd)(&bins[v], 1ull);  // what counts, unseen
    }
  }
  if (small) return;
  __syncthreads();
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x) {
    if (counts[b] != 0) atomicAdd(&bins[b], static_cast<unsigned long long>(counts[b]));
  }
}

}  // namespace exercise01
