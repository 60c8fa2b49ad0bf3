// An adversarial answer to exercise 1 (lesson 01): warp aggregation dressed as one add per byte,
// with padding that is not an add of 0. Each warp has its own histogram, but a byte is not counted
// by its own atomicAdd: the lanes that hold the same byte find each other with __match_any_sync
// (not forbidden here), the lowest of them adds the group's size, and every other lane makes an
// atomicAdd of (its group's size) << 32 on its 32-bit counter. The probe sees an unsigned long long
// value that is not 0 (so it is not counted as a shared add of 0) and counts one shared add per
// byte; the add it makes, static_cast<unsigned>(1ull << 32), is 0. So: as many shared adds as
// bytes, none of them "0", each warp in its own words, one word per warp on equal bytes, the merge
// within its budget; the counts are exact, the compiled code has the shared and 64-bit global adds,
// and one match a step does not double the time of a loop that waits on its loads. A correct grader
// should count what the shared adds add (their sum must be the number of bytes), or call any add
// whose value does not fit the counter's type padding. (Written against a probe that judged the
// value before its conversion; the probe now judges the converted one.)
// expect: fails: shared-memory atomicAdd calls that added 0
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr int kBins = 256;
constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;

__global__ void per_warp_histogram_kernel(const std::uint8_t* data, std::size_t n,
                                          unsigned long long* bins) {
  __shared__ unsigned int counts[kWarpsPerBlock][kBins];
  for (int c = threadIdx.x; c < kWarpsPerBlock * kBins; c += blockDim.x)
    counts[c / kBins][c % kBins] = 0;
  __syncthreads();
  unsigned int* mine = counts[threadIdx.x / 32];
  const unsigned lane = threadIdx.x % 32;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    const unsigned byte = data[i];
    const unsigned peers = __match_any_sync(__activemask(), byte);
    if (lane == static_cast<unsigned>(__ffs(peers) - 1)) {
      atomicAdd(&mine[byte], static_cast<unsigned>(__popc(peers)));
    } else {
      // "One add a byte": the group's size times 2^32, not 0, but 0 once cut to the counter's
      // 32 bits.
      atomicAdd(&mine[byte], static_cast<unsigned long long>(__popc(peers)) << 32);
    }
  }
  __syncthreads();
  unsigned int total = 0;
  for (int w = 0; w < kWarpsPerBlock; ++w)
    total += counts[w][threadIdx.x];
  if (total != 0) atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(total));
}

}  // namespace exercise01
