// Lesson 03 on the CPU: the inputs, the reference dot product every GPU version is checked
// against, and the error bound a float dot product must meet. Plain C++17, shared by cpu.cpp,
// main.cu and test.cu.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "inputs.hpp"

namespace lesson03 {

// The inputs:
//   source    the book's: a[i] = i, b[i] = 2i (as floats), whose exact dot product is 2 sum i^2;
//             every product is positive, so an update that goes missing shows as a result too
//             small;
//   uniform   a[i] and b[i] uniform in [-1, 1);
//   integers  whole numbers in [-4, 4]: while the sum of |a[i] b[i]| stays below 2^24, every
//             partial sum in every order is a whole number a float holds exactly, so the result
//             can be checked bit for bit.
enum class Dist { source, uniform, integers };

inline const course::Names<Dist>& dists() {
  static const course::Names<Dist> names = {{"source", "the book's a[i] = i, b[i] = 2i", "seed"},
                                            {"uniform", "floats in [-1, 1)"},
                                            {"integers", "whole numbers in [-4, 4]"}};
  return names;
}

struct Inputs {
  std::vector<float> a;
  std::vector<float> b;
};

// Element i of a (which = 0) or b (which = 1) for the input named by (seed, dist).
COURSE_HOST_DEVICE inline float element(std::uint64_t seed, std::size_t i, int which, Dist dist) {
  if (dist == Dist::source) {
    // Past 2^24, float(i) is i rounded to the nearest float: a multiple of 2 up to 2^25, of 4 up
    // to 2^26 (the book's N = 33 * 2^20 stays below it); b = 2 * float(i), a multiple of 4 or 8.
    // The arrays themselves are inexact.
    return which == 0 ? static_cast<float>(i) : static_cast<float>(2.0 * static_cast<double>(i));
  }
  const std::uint64_t word = course::random_u64(seed + static_cast<std::uint64_t>(which), i);
  if (dist == Dist::integers) return static_cast<float>(static_cast<int>(word % 9) - 4);
  return static_cast<float>(2.0 * course::unit_interval(word) - 1.0);
}

inline Inputs make_inputs(std::size_t n, Dist dist, std::uint64_t seed) {
  Inputs in{std::vector<float>(n), std::vector<float>(n)};
  course::parallel_for(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      in.a[i] = element(seed, i, 0, dist);
      in.b[i] = element(seed, i, 1, dist);
    }
  });
  return in;
}

// The reference and what the error bound needs: the dot product in double, and the sum of the
// products' magnitudes. A product of two floats is exact in double (24 + 24 bits of significand
// fit in 53), so only the additions round, 2^29 times more finely than in float.
struct Reference {
  double dot = 0;
  double magnitudes = 0;  // sum of |a[i] b[i]|
};

inline Reference reference_dot(const float* a, const float* b, std::size_t n,
                               unsigned threads = std::thread::hardware_concurrency()) {
  std::vector<Reference> partial(std::max(1u, threads));
  course::for_each_slice(n, threads, [&](unsigned t, std::size_t begin, std::size_t end) {
    Reference r;
    for (std::size_t i = begin; i < end; ++i) {
      const double p = static_cast<double>(a[i]) * static_cast<double>(b[i]);
      r.dot += p;
      r.magnitudes += std::fabs(p);
    }
    partial[t] = r;
  });
  Reference sum;
  for (const Reference& r : partial) {
    sum.dot += r.dot;
    sum.magnitudes += r.magnitudes;
  }
  return sum;
}

// What a first program would do: one loop, in float, one rounding per multiply-add.
inline float dot_in_float(const float* a, const float* b, std::size_t n) {
  float sum = 0;
  for (std::size_t i = 0; i < n; ++i)
    sum += a[i] * b[i];
  return sum;
}

// The book's check: 2 sum_{i<n} i^2 = (n - 1) n (2n - 1) / 3, the exact dot product of the source's
// input if the arrays held i and 2i exactly (they do only below 2^24).
inline double source_closed_form(std::size_t n) {
  const double m = static_cast<double>(n);
  return (m - 1.0) * m * (2.0 * m - 1.0) / 3.0;
}

// How a version computes: the threads of its grid and the blocks whose sums the finish adds.
struct Shape {
  std::size_t threads = 1;  // in the whole grid
  std::size_t blocks = 1;
};

// The error bound of a float dot product computed with that shape.
//
// Each rounding is off by at most u = 2^-24 of its result, so a product that goes through D
// roundings on its way to the result carries at most D of them, and the computed dot product obeys
// |computed - exact| <= D u sum |a[i] b[i]| (to first order; N. Higham, "Accuracy and Stability of
// Numerical Algorithms", chapter 3). Here a thread first adds about n / threads products in
// sequence, then its sum goes through a block's tree (at most log2 1024 = 10 levels), then through
// the finish, which adds at most `blocks` sums in sequence (under a lock or by atomicAdd, one after
// another). So D = ceil(n / threads) + 10 + blocks + 1 covers every version here.
//
// With whole-number inputs and sum |a[i] b[i]| below 2^24, every partial sum is a whole number
// that a float holds exactly: the bound is 0, and a result must be exact.
inline double dot_error_bound(std::size_t n, double magnitudes, Shape shape, bool whole_numbers) {
  if (whole_numbers && magnitudes < 16777216.0) return 0.0;
  const double per_thread = std::ceil(static_cast<double>(n) / static_cast<double>(shape.threads));
  const double depth = per_thread + 10.0 + static_cast<double>(shape.blocks) + 1.0;
  return depth * std::ldexp(1.0, -24) * magnitudes;
}

// Whether a GPU result passes (never for NaN).
inline bool dot_ok(float got, double expected, double bound) {
  return std::fabs(static_cast<double>(got) - expected) <= bound;
}

}  // namespace lesson03
