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
  // TODO: a grid-stride loop over the n keys: a key whose bits under prefix_mask equal prefix
  //   adds 1 to bins[digit.of(key)], with an atomic (other threads of the block count too).
  (void)keys;
  (void)n;
  (void)prefix;
  (void)prefix_mask;
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
  // TODO: walk the bins from the top (digit.bins() - 1) down, adding up the keys above; stop at
  //   the first bin where those above plus this bin's reach `remaining`, and write
  //   {that bin, remaining - the keys above it}. For now: bin 0, with nothing taken above it.
  (void)histogram;
  *choice = {0, remaining};
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
