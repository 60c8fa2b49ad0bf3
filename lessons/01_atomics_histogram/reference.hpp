// Lesson 01 on the CPU: the inputs, and the histograms every GPU version is checked against.
// Plain C++17, shared by cpu.cpp, main.cu and test.cu.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "inputs.hpp"

namespace lesson01 {

constexpr int kBins = 256;  // one bin per byte value
using Histogram = std::array<std::uint64_t, kBins>;

// ---- inputs -------------------------------------------------------------------------------------

// The value every byte takes in the "same" input: never 0, because all-zero data hides bugs.
inline std::uint8_t same_value(std::uint64_t seed) {
  return static_cast<std::uint8_t>(1 + seed % 255);
}

// n bytes drawn from one of three distributions:
//   uniform  every value equally likely (the source's rand() bytes);
//   same     every byte equal to same_value(seed): the worst case for atomics;
//   skewed   Zipf's law, the shape of letter and word frequencies in text: the r-th most common
//            value has probability proportional to 1/r, so the top value is 16% of the bytes and
//            the top 8 are 44%. Which byte value gets which rank is shuffled by the seed.
enum class Dist { uniform, same, skewed };

inline const course::Names<Dist>& dists() {
  static const course::Names<Dist> names = {
      {"uniform", "random bytes"},
      {"same", "every byte the same value"},
      {"skewed", "Zipf, like text: the top value 16% of the bytes"}};
  return names;
}

inline std::vector<std::uint8_t> make_input(std::size_t n, Dist dist, std::uint64_t seed) {
  if (dist == Dist::uniform) return course::random_bytes(n, seed);
  if (dist == Dist::same) return std::vector<std::uint8_t>(n, same_value(seed));

  // Rank r (0-based) gets value rank_value[r]: a seeded Fisher-Yates shuffle of 0..255.
  std::array<std::uint8_t, kBins> rank_value{};
  for (int v = 0; v < kBins; ++v)
    rank_value[v] = static_cast<std::uint8_t>(v);
  for (int i = kBins - 1; i > 0; --i) {
    const auto j = static_cast<int>(course::random_u64(seed ^ 0x5EEDull, i) % (i + 1));
    std::swap(rank_value[i], rank_value[j]);
  }
  // A 16-bit uniform number picks a value through this table, built from the Zipf CDF
  // (so each probability is quantised to 1/65536).
  double harmonic = 0.0;
  for (int r = 1; r <= kBins; ++r)
    harmonic += 1.0 / r;
  std::vector<std::uint8_t> table(65536);
  double cdf = 0.0;
  std::size_t filled = 0;
  for (int r = 0; r < kBins; ++r) {
    cdf += 1.0 / ((r + 1) * harmonic);
    const auto end = (r == kBins - 1) ? table.size() : static_cast<std::size_t>(cdf * 65536.0);
    for (; filled < end; ++filled)
      table[filled] = rank_value[r];
  }
  std::vector<std::uint8_t> out(n);
  course::parallel_for(
      n,
      [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; i += 4) {
          const std::uint64_t word = course::random_u64(seed, i / 4);
          for (std::size_t k = 0; k < 4 && i + k < end; ++k) {
            out[i + k] = table[(word >> (16 * k)) & 0xFFFF];
          }
        }
      },
      4);
  return out;
}

// ---- histograms ---------------------------------------------------------------------------------

// The source's CPU program: one loop, one increment per byte. When consecutive bytes are equal,
// each increment must wait for the one before it (load, add, store, then load the same counter
// again), so all-equal bytes are several times slower than random ones.
// The counts a GPU version left in its kernel's counters (32 or 64 bits), as a Histogram.
template <typename Counter>
Histogram to_histogram(const std::vector<Counter>& counts) {
  Histogram h{};
  for (int b = 0; b < kBins; ++b)
    h[b] = counts[b];
  return h;
}

inline Histogram histogram_cpu_loop(const std::uint8_t* data, std::size_t n) {
  Histogram bins{};
  for (std::size_t i = 0; i < n; ++i)
    ++bins[data[i]];
  return bins;
}

// Four sub-histograms, used in turn: equal neighbours now update four different counters, so
// four increments are in flight at once instead of one. 4 x 2 KiB still fits in the L1 cache.
inline Histogram histogram_cpu_unrolled(const std::uint8_t* data, std::size_t n) {
  std::array<Histogram, 4> sub{};
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    ++sub[0][data[i]];
    ++sub[1][data[i + 1]];
    ++sub[2][data[i + 2]];
    ++sub[3][data[i + 3]];
  }
  for (; i < n; ++i)
    ++sub[0][data[i]];
  Histogram bins{};
  for (int b = 0; b < kBins; ++b)
    bins[b] = sub[0][b] + sub[1][b] + sub[2][b] + sub[3][b];
  return bins;
}

// The fair CPU: every core runs histogram_cpu_unrolled on its own slice (so no two threads ever
// share a counter), then the per-thread histograms are added up.
inline Histogram histogram_cpu_threads(const std::uint8_t* data, std::size_t n,
                                       unsigned threads = std::thread::hardware_concurrency()) {
  std::vector<Histogram> partial(std::max(1u, threads), Histogram{});
  course::for_each_slice(n, threads, [&](unsigned t, std::size_t begin, std::size_t end) {
    partial[t] = histogram_cpu_unrolled(data + begin, end - begin);
  });
  Histogram bins{};
  for (const auto& p : partial) {
    for (int b = 0; b < kBins; ++b)
      bins[b] += p[b];
  }
  return bins;
}

// The histogram of values that may exceed a byte (exercise 2): values >= num_bins are not
// counted, as in CUB's HistogramEven.
inline std::vector<std::uint64_t> histogram_of_values(const std::uint16_t* values, std::size_t n,
                                                      unsigned num_bins) {
  std::vector<std::uint64_t> bins(num_bins, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (values[i] < num_bins) ++bins[values[i]];
  }
  return bins;
}

}  // namespace lesson01
