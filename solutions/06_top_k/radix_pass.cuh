// Exercise 4 (lesson 06, advanced): one pass of radix select. Count the keys that match the prefix
// found so far by their next digit, then choose the bucket, counted from the top, that holds the
// remaining-th largest of them.
#pragma once

#include <cstddef>

#include "check.hpp"
#include "reference.hpp"  // lesson06::Key, Digit, BucketChoice, kMaxBins

namespace exercise06 {

constexpr int kPassThreads = 256;

// histogram[b] += the number of keys whose bits under prefix_mask equal prefix and whose `digit`
// is b. Each block counts in shared memory, then adds its counts to the global histogram (zeroed
// by the caller).
__global__ void digit_histogram_kernel(const lesson06::Key* keys, std::size_t n,
                                       lesson06::Digit digit, lesson06::Key prefix,
                                       lesson06::Key prefix_mask, unsigned long long* histogram) {
  __shared__ unsigned bins[lesson06::kMaxBins];
  for (unsigned b = threadIdx.x; b < digit.bins(); b += blockDim.x)
    bins[b] = 0;
  __syncthreads();  // zeroed before counting
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    const lesson06::Key key = keys[i];
    if ((key & prefix_mask) == prefix) atomicAdd(&bins[digit.of(key)], 1u);
  }
  __syncthreads();  // counted before merging
  for (unsigned b = threadIdx.x; b < digit.bins(); b += blockDim.x) {
    if (bins[b] != 0) atomicAdd(&histogram[b], static_cast<unsigned long long>(bins[b]));
  }
}

// One thread: walks the bins from the top, adding up the keys above, until the bin that holds the
// remaining-th largest key (1 <= remaining <= the total); writes that bin, and how many of its
// keys are still wanted once all those above are taken.
__global__ void choose_bucket_kernel(const unsigned long long* histogram, lesson06::Digit digit,
                                     unsigned long long remaining, lesson06::BucketChoice* choice) {
  unsigned long long above = 0;
  for (unsigned b = digit.bins(); b-- > 0;) {
    if (above + histogram[b] >= remaining) {
      *choice = {b, remaining - above};
      return;
    }
    above += histogram[b];
  }
  *choice = {0, remaining - above};
}

// One pass over the n keys at d_keys: the histogram of `digit` among those matching the prefix
// (into d_histogram, kMaxBins counters), then the choice of bucket (into d_choice), returned.
inline lesson06::BucketChoice radix_pass(const lesson06::Key* d_keys, std::size_t n,
                                         lesson06::Digit digit, lesson06::Key prefix,
                                         lesson06::Key prefix_mask, unsigned long long remaining,
                                         unsigned long long* d_histogram,
                                         lesson06::BucketChoice* d_choice) {
  CUDA_CHECK(cudaMemset(d_histogram, 0, lesson06::kMaxBins * sizeof(unsigned long long)));
  const std::size_t blocks = (n + kPassThreads - 1) / kPassThreads;
  digit_histogram_kernel<<<static_cast<unsigned>(blocks < 1024 ? (blocks > 0 ? blocks : 1) : 1024),
                           kPassThreads>>>(d_keys, n, digit, prefix, prefix_mask, d_histogram);
  CUDA_CHECK_LAUNCH();
  choose_bucket_kernel<<<1, 1>>>(d_histogram, digit, remaining, d_choice);
  CUDA_CHECK_LAUNCH();
  lesson06::BucketChoice choice{};
  CUDA_CHECK(cudaMemcpy(&choice, d_choice, sizeof choice, cudaMemcpyDeviceToHost));
  return choice;
}

}  // namespace exercise06
