// An adversarial answer to exercise 2 (lesson 01): one thread does the block's counting, and the
// shared atomicAdds are a decoy. Below 2^26 values (every size the tests check but the 2^32 one
// and the timed 2^28), every thread adds 1 to one __shared__ decoy word for each value below
// num_bins it reads, and thread 0 walks all of its block's values and counts them into the
// counters with plain increments (no other thread touches them, so no atomic is needed). The probe
// counts shared adds, and sees one per counted value, each of 1, none of 0; it does not ask where
// they land (this exercise's probe does not look at the words). Global adds are the merge's. At
// 2^26 values and more the kernel is the model answer, so the timed run is the model's time and
// the 2^32 test ends in time. Counts exact everywhere; the compiled code has the model's
// instructions.
// A correct grader should ask that the shared adds land in the counters (one per distinct value in
// a block, on random values), or that no one thread reads its block's values.
// expect: fails: shared words whose adds, over the blocks, are not the histogram
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr unsigned kMaxBins = 4096;

__global__ void general_histogram_kernel(const std::uint16_t* values, std::size_t n,
                                         unsigned num_bins, unsigned long long* bins) {
  extern __shared__ unsigned int counts[];
  __shared__ unsigned int decoy;
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x)
    counts[b] = 0;
  if (threadIdx.x == 0) decoy = 0;
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t start = blockIdx.x * static_cast<std::size_t>(blockDim.x);
  if (n < (std::size_t{1} << 26)) {
    for (std::size_t i = start + threadIdx.x; i < n; i += stride) {
      if (values[i] < num_bins) atomicAdd(&decoy, 1u);
    }
    if (threadIdx.x == 0) {
      for (std::size_t i = start; i < n; i += stride) {
        for (std::size_t k = i; k < i + blockDim.x && k < n; ++k) {
          const unsigned v = values[k];
          if (v < num_bins) ++counts[v];
        }
      }
    }
  } else {
    for (std::size_t i = start + threadIdx.x; i < n; i += stride) {
      if (values[i] < num_bins) atomicAdd(&counts[values[i]], 1u);
    }
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x) {
    if (counts[b] != 0) atomicAdd(&bins[b], static_cast<unsigned long long>(counts[b]));
  }
}

}  // namespace exercise01
