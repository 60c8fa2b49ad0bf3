// Lesson 05 on the CPU: the order the course sorts floats in, the inputs, the source's host
// odd-even transposition sort, the reference (std::sort) and the check every GPU result must pass.
// Plain C++17, shared by cpu.cpp, main.cu and test.cu; the order is also compiled for the GPU.
//
// The order is IEEE 754's totalOrder: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN. The
// source compares with `>`, which is not an order once a NaN is among the values (every comparison
// with a NaN is false), and which cannot tell -0.0 from +0.0. totalOrder is what the float's bits
// give when read as a sign-magnitude integer, so a key of 32 bits compares in one instruction:
// flip every bit of a negative float, and only the sign bit of a positive one.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "bits.hpp"
#include "cli.hpp"
#include "format.hpp"
#include "inputs.hpp"
#include "order.hpp"

namespace lesson05 {

// The source's setup: one block of 512 threads (the G80's most) sorts 1024 floats.
constexpr std::size_t kSourceN = 1024;
constexpr int kSourceThreads = 512;
// The largest n at which the source's host odd-even sort, quadratic, is run: lesson05's CPU part
// and its --sweep stop at 2^16 (about 2 s on one core), lesson05_cpu, the CPU program alone, at
// 2^18 (about half a minute). Each program's line names its own, from here.
constexpr std::size_t kHostOddEvenMaxN = std::size_t{1} << 16;
constexpr std::size_t kCpuProgramOddEvenMaxN = std::size_t{1} << 18;

// The inputs:
//   perm      the source's: 0, 1, ..., n - 1 shuffled by 2n random swaps (past 2^24 the floats
//             repeat, because float(i) is not i);
//   uniform   floats in [-1, 1);
//   sorted    ascending floats in [-1, 1);
//   reversed  descending floats in (-1, 1];
//   dups      the whole numbers -8 to 7: each about n / 16 times;
//   zeros     -0.0 and +0.0, with the two smallest denormals, -2^-149 and +2^-149;
//   special   NaNs of both signs with random payloads, -inf, +inf, -0.0, +0.0, denormals, the
//             largest floats, and ordinary ones.
enum class Dist { perm, uniform, sorted, reversed, dups, zeros, special };

inline const course::Names<Dist>& dists() {
  static const course::Names<Dist> names = {
      {"perm", "the source's shuffled 0..n-1"},
      {"uniform", "floats in [-1, 1)"},
      {"sorted", "ascending"},
      {"reversed", "descending"},
      {"dups", "16 distinct values"},
      {"zeros", "-0.0 and +0.0 (and two denormals)"},
      {"special", "NaNs of both signs, infinities, zeros, denormals"}};
  return names;
}

// Element i of the inputs that are a pure function of (seed, i): every dist but perm.
COURSE_HOST_DEVICE inline float element(std::uint64_t seed, std::size_t i, std::size_t n,
                                        Dist dist) {
  const std::uint64_t word = course::random_u64(seed, i);
  const double u = course::unit_interval(word);
  switch (dist) {
    case Dist::sorted:
      return static_cast<float>(-1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(n));
    case Dist::reversed:
      return static_cast<float>(1.0 - 2.0 * static_cast<double>(i) / static_cast<double>(n));
    case Dist::dups:
      return static_cast<float>(static_cast<int>(word % 16) - 8);
    case Dist::zeros: {
      const std::uint32_t bits[] = {0x80000000u, 0x80000000u, 0x80000000u, 0x00000000u,
                                    0x00000000u, 0x00000000u, 0x80000001u, 0x00000001u};
      return course::from_bits<float>(bits[word % 8]);
    }
    case Dist::special: {
      const std::uint32_t payload = static_cast<std::uint32_t>(word >> 40) & 0x3FFFFFu;
      const std::uint32_t sign = static_cast<std::uint32_t>(word >> 63) << 31;
      switch (word % 16) {
        case 0:
          return course::from_bits<float>(0x7FC00000u | payload);  // +NaN
        case 1:
          return course::from_bits<float>(0xFFC00000u | payload);  // -NaN
        case 2:
          return course::from_bits<float>(0x7F800000u);  // +inf
        case 3:
          return course::from_bits<float>(0xFF800000u);  // -inf
        case 4:
          return course::from_bits<float>(0x80000000u);  // -0.0
        case 5:
          return 0.0f;
        case 6:
          return course::from_bits<float>(sign | (payload & 0x7FFFFu) | 1u);  // a denormal
        case 7:
          return course::from_bits<float>(sign | 0x7F7FFFFFu);  // -FLT_MAX or FLT_MAX
        default:
          return static_cast<float>((2.0 * u - 1.0) * 1000.0);
      }
    }
    case Dist::perm:
    case Dist::uniform:
    default:
      return static_cast<float>(2.0 * u - 1.0);
  }
}

// The input of n floats for `dist`.
inline std::vector<float> make_input(std::size_t n, Dist dist, std::uint64_t seed) {
  std::vector<float> out(n);
  if (dist == Dist::perm) {
    // The source's shuffle: 2n swaps of two random places. Sequential, like the source's.
    for (std::size_t i = 0; i < n; ++i)
      out[i] = static_cast<float>(i);
    for (std::size_t s = 0; s < 2 * n; ++s) {
      const std::size_t a = course::random_u64(seed, 2 * s) % n;
      const std::size_t b = course::random_u64(seed, 2 * s + 1) % n;
      std::swap(out[a], out[b]);
    }
    return out;
  }
  course::parallel_for(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      out[i] = element(seed, i, n, dist);
  });
  return out;
}

// How many phases the source runs: its kernel and its host loop both count `loop <= N/2`, so
// n/2 + 1 rounds of an even and an odd phase: n + 2 phases for even n, n + 1 for odd n. Odd-even
// transposition needs n (n - 1 do not always sort: try 3, 2, 1), so the source's count sorts any n,
// odd ones included, with a phase or two to spare.
COURSE_HOST_DEVICE constexpr std::size_t source_phases(std::size_t n) {
  return 2 * (n / 2 + 1);
}

// The source's host version: odd-even transposition sort. Phase p compares the pairs (0,1), (2,3),
// ... when p is even, and (1,2), (3,4), ... when p is odd, and swaps a pair that is out of order.
// It runs the source's count of phases unless `phases` says otherwise.
template <typename Before = TotalOrder>
void odd_even_sort(float* a, std::size_t n, Before before = {}, std::size_t phases = SIZE_MAX) {
  if (phases == SIZE_MAX) phases = source_phases(n);
  for (std::size_t p = 0; p < phases; ++p) {
    for (std::size_t i = p % 2; i + 1 < n; i += 2) {
      if (before(a[i + 1], a[i])) std::swap(a[i], a[i + 1]);
    }
  }
}

// The reference: std::sort in totalOrder, on a copy.
inline std::vector<float> reference_sort(std::vector<float> values) {
  std::sort(values.begin(), values.end(), TotalOrder{});
  return values;
}

// A float's bits, with -0.0 read as +0.0 when zeros_equal: the order CUB's radix sort (under
// thrust::sort) keeps, which treats the two zeros as one key and leaves them in input order.
inline std::uint32_t compared_bits(float x, bool zeros_equal) {
  const std::uint32_t bits = course::bits_of(x);
  return zeros_equal && bits == 0x80000000u ? 0u : bits;
}

// "" when got is `expected` (the reference's output) bit for bit; otherwise how many elements
// differ and the first of them. zeros_equal: -0.0 and +0.0 count as the same.
inline std::string sort_mismatch(const float* got, const std::vector<float>& expected,
                                 bool zeros_equal = false) {
  std::size_t differences = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (compared_bits(got[i], zeros_equal) != compared_bits(expected[i], zeros_equal)) {
      if (differences++ == 0) first = i;
    }
  }
  if (differences == 0) return "";
  return course::format(
      "%zu of %zu elements differ; first at [%zu]: got %g (0x%08x), expected %g "
      "(0x%08x)",
      differences, expected.size(), first, static_cast<double>(got[first]),
      static_cast<unsigned>(course::bits_of(got[first])), static_cast<double>(expected[first]),
      static_cast<unsigned>(course::bits_of(expected[first])));
}

// The source's own check, for its input (perm, n <= 2^24): c[k] == k.
inline bool source_check(const float* c, std::size_t n) {
  for (std::size_t k = 0; k < n; ++k) {
    if (c[k] != static_cast<float>(k)) return false;
  }
  return true;
}

// The comparisons the source's host loop makes, counted as source_phases(n) phases of n / 2: an
// upper bound, since for an even n an odd phase makes n / 2 - 1 (the same to three digits at 1024).
inline double odd_even_comparisons(std::size_t n) {
  return static_cast<double>(source_phases(n)) * static_cast<double>(n / 2);
}

}  // namespace lesson05
