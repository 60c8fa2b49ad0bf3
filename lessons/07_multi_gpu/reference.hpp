// Lesson 07 on the CPU: how the input is cut into one share per GPU, the order in which the GPUs'
// partial results are added, the all-reduce's input and answer, and the bandwidths NCCL's tests
// report. Plain C++17, shared by cpu.cpp, main.cu and test.cu. The histogram and the dot product
// themselves are lessons 01's and 03's, with their CPU references.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <01_atomics_histogram/reference.hpp>
#include <03_lock_dot_product/reference.hpp>

#include "bits.hpp"
#include "cli.hpp"
#include "format.hpp"
#include "inputs.hpp"

namespace lesson07 {

// ---- the work -----------------------------------------------------------------------------------

// What the GPUs compute together:
//   hist       lesson 01's histogram of n bytes: the answer is 256 counts;
//   dot        lesson 03's dot product of two arrays of n floats: the answer is one float;
//   allreduce  every GPU holds n floats, and every GPU ends with their sum, element by element
//              (what data-parallel training does to its gradients after every step).
enum class Work { hist, dot, allreduce };

inline const course::Names<Work>& works() {
  static const course::Names<Work> names = {
      {"hist", "lesson 01's histogram of n random bytes"},
      {"dot", "lesson 03's dot product of two arrays of n floats in [-1, 1)"},
      {"allreduce", "each GPU holds n floats; every GPU ends with their sum"}};
  return names;
}

// ---- shares -------------------------------------------------------------------------------------

// The elements [begin, end) that one GPU works on.
struct Share {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t size() const { return end - begin; }
};

// Share `g` of n elements cut into `parts` (>= 1) contiguous shares whose sizes differ by at most
// one: the first n % parts shares get one element more. With n < parts the last shares are empty.
inline Share share_of(std::size_t n, int parts, int g) {
  if (parts < 1 || g < 0 || g >= parts) throw std::invalid_argument("share_of: no such share");
  const auto p = static_cast<std::size_t>(parts);
  const auto i = static_cast<std::size_t>(g);
  const std::size_t base = n / p;
  const std::size_t extra = n % p;
  const std::size_t begin = i * base + std::min(i, extra);
  return {begin, begin + base + (i < extra ? 1 : 0)};
}

// ---- combining partial results ------------------------------------------------------------------

// The GPUs' partial results, added in rank order: GPU 0's, then GPU 1's, and so on. Counts add
// exactly in any order; floats do not, and this fixed order is what makes a result the same bits
// on every run with the same number of GPUs. `partials` holds `ranks` runs of `width` values;
// `sum` gets `width` (it may be `partials` itself: row 0 becomes the sum).
template <typename T>
void add_in_rank_order(const T* partials, int ranks, std::size_t width, T* sum) {
  for (std::size_t i = 0; i < width; ++i) {
    T total = partials[i];
    for (std::size_t r = 1; r < static_cast<std::size_t>(ranks); ++r)
      total += partials[r * width + i];
    sum[i] = total;
  }
}

template <typename T>
std::vector<T> combine_in_rank_order(const std::vector<T>& partials, int ranks) {
  if (ranks < 1 || partials.size() % static_cast<std::size_t>(ranks) != 0) {
    throw std::invalid_argument("combine_in_rank_order: partials is not ranks runs of one width");
  }
  const std::size_t width = partials.size() / static_cast<std::size_t>(ranks);
  std::vector<T> sum(width);
  add_in_rank_order(partials.data(), ranks, width, sum.data());
  return sum;
}

// Lesson 03's error bound for a dot product cut into pieces: each piece (a GPU's share, or a chunk
// of one) is summed by lesson 03's v4 (`threads` threads in `blocks` blocks), and the pieces' sums
// then go through at most `combine_adds` more additions. A product passes through at most
// ceil(largest piece / threads) additions in its thread, 10 in its block, `blocks` in the piece's
// finish and `combine_adds` in the combine.
inline double dot_error_bound(std::size_t largest_piece, double magnitudes, std::size_t threads,
                              std::size_t blocks, std::size_t combine_adds, bool whole_numbers) {
  return lesson03::dot_error_bound(largest_piece, magnitudes, {threads, blocks + combine_adds},
                                   whole_numbers);
}

// ---- checking an answer that came back as numbers ----------------------------------------------

// "" when `got` (an answer printed by a rank, as doubles) is the 256 counts of `expected`; else
// the first bin that differs.
inline std::string histogram_mismatch(const std::vector<double>& got,
                                      const lesson01::Histogram& expected) {
  if (got.size() != expected.size()) {
    return course::format("%zu counts, not %zu", got.size(), expected.size());
  }
  for (std::size_t b = 0; b < got.size(); ++b) {
    if (got[b] != static_cast<double>(expected[b])) {
      return course::format("bin %zu: got %.17g, expected %llu", b, got[b],
                            static_cast<unsigned long long>(expected[b]));
    }
  }
  return "";
}

// "" when `got` is one float within `bound` of the dot product `expected`; else what is wrong.
inline std::string dot_mismatch(const std::vector<double>& got, double expected, double bound) {
  if (got.size() != 1) return course::format("%zu numbers, not one", got.size());
  if (!lesson03::dot_ok(static_cast<float>(got[0]), expected, bound)) {
    return course::format("got %.9g, expected %.9g within %.3g", got[0], expected, bound);
  }
  return "";
}

// ---- the all-reduce's input ---------------------------------------------------------------------

// Element i of GPU `rank`'s vector: a whole number in [-8, 8], never all zero. Any sum of up to
// 2^20 of them is a whole number of magnitude below 2^24, which a float holds exactly, so the
// all-reduce's result is exact in any order of addition and is checked bit for bit.
COURSE_HOST_DEVICE inline float allreduce_element(std::uint64_t seed, int rank, std::size_t i) {
  const std::uint64_t word =
      course::random_u64(seed + 0x9E37u * static_cast<std::uint64_t>(rank), i);
  return static_cast<float>(static_cast<int>(word % 17) - 8);
}

// The all-reduce's answer: element i summed over the ranks, in double (exact here).
inline std::vector<float> allreduce_expected(std::size_t n, int ranks, std::uint64_t seed) {
  std::vector<float> sum(n);
  course::parallel_for(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      double s = 0;
      for (int r = 0; r < ranks; ++r)
        s += allreduce_element(seed, r, i);
      sum[i] = static_cast<float>(s);
    }
  });
  return sum;
}

// ---- bandwidth, as NCCL's tests report it -------------------------------------------------------

// nccl-tests (doc/PERFORMANCE.md) report two figures for an all-reduce of S bytes that took t:
//   algorithm bandwidth  algbw = S / t;
//   bus bandwidth        busbw = algbw * 2 (G - 1) / G,
// because each GPU must send and receive 2 (G - 1) / G of the S bytes whatever the algorithm; so
// busbw can be set against the link's own bandwidth, for any G.
inline double algbw_gbps(double bytes, double ms) {
  return bytes / (ms * 1e6);
}
inline double busbw_gbps(double bytes, double ms, int ranks) {
  return algbw_gbps(bytes, ms) * 2.0 * (ranks - 1) / ranks;
}

// Strong scaling: the same n on G GPUs. Speed-up over one GPU, and parallel efficiency (the
// speed-up divided by G: 1 is perfect).
inline double speedup(double one_gpu_ms, double ms) {
  return one_gpu_ms / ms;
}
inline double efficiency(double one_gpu_ms, double ms, int ranks) {
  return speedup(one_gpu_ms, ms) / ranks;
}

}  // namespace lesson07
