// An adversarial answer to exercise 2 (lesson 05): the scrambled order broken, after which no
// comparison needs before(). The order the tests draw is public (merge_split_order.hpp, which the
// exercise lets an answer include): grading05::order_place(x, key), with a 32-bit key of which the
// tests fix two bits (key = drawn | 0x80000001), so 2^30 keys are possible. Each launch, threads 0
// to 47 ask before() one question each, before(x_t, x_t ^ 1) for 48 fixed floats x_t, and the
// block checks the answers against the key it found before (a __device__ variable kept from launch
// to launch). When they do not fit (the first launch under a new order), the block tries all 2^30
// keys, 4 Mi a thread, in a second or so, and keeps the one whose order answers the 48 questions
// as before() did (a wrong key fits all 48 with odds of 2^30 / 2^48). Under the course's order
// (last_float() is then the course's, not the scrambled pad) the key is 0. With the key, each
// float's place in the order is the answer's own to compute, and the merge-split is a bitonic
// merge (a sorting network over both runs, comparing floats of one run again and again) on those
// places, which the probe never sees: it counts before()'s calls only.
// Why each test passes:
// - "sort every input", the counted sizes and "in the course's order": the places are before()'s
//   order itself (order_place with the drawn key, or with 0), so the network sorts the 2 kRun
//   floats exactly as before() would, NaNs, +-0 and the scrambled pad included; pads are
//   last_float(); only places below n are written back.
// - check_counts: 48 comparisons a block a launch (far below 11,264 a merge-split), more than 0 in
//   every probed run that merges, one per thread number 0 to 47 (at most 88 allowed).
// - "compares floats of one run only with floats of the other": each question sets x against
//   x ^ 1, whose bits differ in bit 0 only, and the drawn mask always has bit 0 (mask | 3), so the
//   parity of their difference under it is odd: no question is a same-run comparison; there are
//   48 > 0 of them.
// - The search takes about a second on an H100, once per test case (three scrambled orders),
//   inside the watchdog's 10 s; every other launch only checks 48 answers.
// - The compiled code: shared loads and stores, bar.sync, no atomic (the blocks agree through
//   plain stores of one same key).
// - Time: the timed rounds are under the course's order (no search); a bitonic merge of ten
//   stages takes about what four binary searches do: within the factor of 3.
// A correct grader should draw an order no answer can search (a key of 64 bits or more, or a
// random permutation table the answer cannot read), and ask for a merge by ranks' number of
// before() calls per merge-split, not just more than none.
// Caught: the harness's names are now refused, and the order's key has 64 bits (62 free: the tests
// set bits 0 and 63), past any search; the account above is of the grader it was written against,
// whose key had 32 bits.
// expect: rejected: uses the grading probes
#pragma once

#include <cstddef>
#include <cstdint>

#include "merge_split_order.hpp"    // grading05::order_place, kScrambledPad
#include "merge_split_support.cuh"  // before, last_float (grading/)

namespace exercise05 {

constexpr int kMergeThreads = 256;
constexpr std::size_t kRun = 2 * kMergeThreads;
constexpr int kQuestions = 48;

__device__ std::uint32_t g_key = 0;  // the scrambled order's key, as found by an earlier launch

// The float of question t (its bit 0 clear; the question sets it against the same float with bit 0
// set), never the scrambled order's pad.
__device__ inline float question(int t) {
  std::uint32_t h = static_cast<std::uint32_t>(t) * 0x9E3779B9u + 0x2545F491u;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  h &= ~1u;
  if ((h | 1u) == (grading05::kScrambledPad | 1u)) h ^= 0x100u;
  return __uint_as_float(h);
}

// order_place's mix for a float of totalOrder key k (not the pad), under `key`.
__device__ inline std::uint32_t mixed(std::uint32_t k, std::uint32_t key) {
  k ^= key;
  k *= 0x9E3779B1u;
  k ^= k >> 15;
  k *= key | 1u;
  k ^= k >> 13;
  k *= 0x85EBCA77u;
  k ^= k >> 16;
  return k;
}

__global__ void merge_split_kernel(float* data, std::size_t n, std::size_t first) {
  __shared__ float keys[2 * kRun];  // the lower run, then the upper one reversed
  __shared__ std::uint64_t places[2 * kRun];
  __shared__ std::uint32_t asked[kQuestions];  // totalOrder key of question t's first float
  __shared__ bool answer[kQuestions];          // before(x_t, x_t ^ 1)
  __shared__ bool misfit;
  __shared__ std::uint32_t found;
  const bool scrambled = __float_as_uint(last_float()) == grading05::kScrambledPad;
  const std::uint32_t kept = g_key;
  if (threadIdx.x == 0) {
    misfit = false;
    found = 0;
  }
  __syncthreads();
  if (threadIdx.x < kQuestions) {
    const float x = question(threadIdx.x);
    const float y = __uint_as_float(__float_as_uint(x) ^ 1u);
    const bool b = before(x, y);
    asked[threadIdx.x] = static_cast<std::uint32_t>(grading05::order_place(x, 0));
    answer[threadIdx.x] = b;
    if (scrambled && (grading05::order_place(x, kept) < grading05::order_place(y, kept)) != b)
      misfit = true;
  }
  __syncthreads();
  std::uint32_t key = 0;
  if (scrambled) {
    key = kept;
    if (misfit) {
      // Every key the tests can draw: bits 31 and 0 set, the 30 between them free. The first two
      // questions from registers, the other 46 only for the quarter of keys that fit those.
      const std::uint32_t a0 = asked[0];
      const std::uint32_t a1 = asked[1];
      const bool b0 = answer[0];
      const bool b1 = answer[1];
      for (std::uint32_t m = threadIdx.x; m < (1u << 30); m += blockDim.x) {
        const std::uint32_t k = 0x80000001u | (m << 1);
        const bool fit0 = (mixed(a0, k) < mixed(a0 ^ 1u, k)) == b0;
        const bool fit1 = (mixed(a1, k) < mixed(a1 ^ 1u, k)) == b1;
        if (fit0 && fit1) {
          bool fits = true;
          for (int t = 2; t < kQuestions && fits; ++t)
            fits = (mixed(asked[t], k) < mixed(asked[t] ^ 1u, k)) == answer[t];
          if (fits) found = k;
        }
      }
      __syncthreads();
      key = found;
      if (threadIdx.x == 0) g_key = key;
    }
  }
  const std::size_t lo = first + 2 * blockIdx.x * kRun;
  for (unsigned t = threadIdx.x; t < 2 * kRun; t += blockDim.x) {
    const unsigned run = t / kRun;
    const std::size_t at = lo + run * kRun + (run == 0 ? t : 2 * kRun - 1 - t);
    const float x = at < n ? data[at] : last_float();
    keys[t] = x;
    places[t] = grading05::order_place(x, key);
  }
  __syncthreads();
  for (unsigned half = kRun; half > 0; half /= 2) {
    for (unsigned p = threadIdx.x; p < kRun; p += blockDim.x) {
      const unsigned a = (p / half) * 2 * half + p % half;
      const unsigned b = a + half;
      if (places[b] < places[a]) {
        const float x = keys[a];
        keys[a] = keys[b];
        keys[b] = x;
        const std::uint64_t place = places[a];
        places[a] = places[b];
        places[b] = place;
      }
    }
    __syncthreads();
  }
  for (unsigned t = threadIdx.x; t < 2 * kRun; t += blockDim.x) {
    if (lo + t < n) data[lo + t] = keys[t];
  }
}

}  // namespace exercise05
