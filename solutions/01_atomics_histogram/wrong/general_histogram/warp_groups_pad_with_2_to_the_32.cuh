// An adversarial answer to exercise 2 (lesson 01): warp aggregation dressed as one add per value,
// with padding that is not an add of 0 (warp_groups_pad_with_zero_adds, done otherwise). The
// lanes that hold the same counted value find each other with __match_any_sync (not forbidden
// here); the lowest adds the group's size to the shared counter, and every other lane makes an
// atomicAdd of (its group's size) << 32 on that 32-bit counter. The probe compares the value, an
// unsigned long long, with 0 (it is not) and counts a shared add; the add it makes, cut to the
// counter's 32 bits, is 0. So the probe sees one shared add per counted value, none "of 0", and
// merges of counts; on one value everywhere a warp is one real add of 32 and 31 disguised ones.
// Counts exact; the compiled code has shared and 64-bit global adds. A correct grader should check
// what the shared adds add up to, or call an add whose value does not fit the counter padding.
// expect: fails: shared-memory atomicAdd calls that added 0
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
    if (v < num_bins) {
      const unsigned peers = __match_any_sync(__activemask(), v);
      if (lane == static_cast<unsigned>(__ffs(peers) - 1)) {
        atomicAdd(&counts[v], static_cast<unsigned>(__popc(peers)));
      } else {
        // A multiple of 2^32: 0 in a 32-bit counter, not 0 to the probe.
        atomicAdd(&counts[v], static_cast<unsigned long long>(__popc(peers)) << 32);
      }
    }
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < num_bins; b += blockDim.x) {
    if (counts[b] != 0) atomicAdd(&bins[b], static_cast<unsigned long long>(counts[b]));
  }
}

}  // namespace exercise01
