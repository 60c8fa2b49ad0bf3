// Lesson 02 on the CPU: the inputs, the reference sums every GPU version is checked against, and
// the error bound a float sum must meet. Plain C++17 (the element generator also compiles for the
// GPU, so tests can make inputs too large to copy), shared by cpu.cpp, main.cu and test.cu.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "cli.hpp"
#include "inputs.hpp"

namespace lesson02 {

// The inputs:
//   uniform   floats uniform in [-1, 1), or ints uniform in [-8, 8];
//   integers  (floats only) whole numbers in [-8, 8] held as floats: every partial sum of them is
//             a whole number far below 2^24, so every summation order gives the exact sum, and a
//             float result can be checked bit for bit, like an int one.
enum class Dist { uniform, integers };

inline const course::Names<Dist>& dists() {
  static const course::Names<Dist> names = {
      {"uniform", "floats in [-1, 1) or ints in [-8, 8]"},
      {"integers", "whole numbers in [-8, 8] as floats, whose float sum is exact in any order"}};
  return names;
}

// Element i of the input named by (seed, dist): a pure function, on the CPU or the GPU.
template <typename T>
COURSE_HOST_DEVICE T element(std::uint64_t seed, std::uint64_t i, Dist dist) {
  const std::uint64_t word = course::random_u64(seed, i);
  if (std::is_integral<T>::value || dist == Dist::integers) {
    return static_cast<T>(static_cast<int>(word % 17) - 8);
  }
  return static_cast<T>(2.0 * course::unit_interval(word) - 1.0);
}

template <typename T>
std::vector<T> make_input(std::size_t n, Dist dist, std::uint64_t seed) {
  std::vector<T> out(n);
  course::parallel_for(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      out[i] = element<T>(seed, i, dist);
  });
  return out;
}

// The type the reference sums in: 64-bit integers for ints (exact), double for floats.
template <typename T>
using Wide = std::conditional_t<std::is_integral<T>::value, long long, double>;

// The reference: one sequential loop in the wide type.
template <typename T>
Wide<T> reference_sum(const T* x, std::size_t n) {
  Wide<T> sum = 0;
  for (std::size_t i = 0; i < n; ++i)
    sum += x[i];
  return sum;
}

// Adds up what slice_sum(begin, end) gives for the slices of [0, n), one slice per thread.
template <typename Sum, typename SliceSum>
Sum sum_of_slices(std::size_t n, unsigned threads, SliceSum slice_sum) {
  std::vector<Sum> partial(std::max(1u, threads), 0);
  course::for_each_slice(n, threads, [&](unsigned t, std::size_t begin, std::size_t end) {
    partial[t] = slice_sum(begin, end);
  });
  Sum sum = 0;
  for (Sum p : partial)
    sum += p;
  return sum;
}

// The fair CPU: every core sums its own slice in the wide type, then the slices are added.
template <typename T>
Wide<T> reference_sum_threads(const T* x, std::size_t n,
                              unsigned threads = std::thread::hardware_concurrency()) {
  return sum_of_slices<Wide<T>>(n, threads, [&](std::size_t begin, std::size_t end) {
    return reference_sum(x + begin, end - begin);
  });
}

// The reference sum of an input made by element() without storing it (for inputs too large to
// hold twice), in parallel.
template <typename T>
Wide<T> reference_sum_of(std::size_t n, Dist dist, std::uint64_t seed) {
  return sum_of_slices<Wide<T>>(n, std::thread::hardware_concurrency(),
                                [&](std::size_t begin, std::size_t end) {
                                  Wide<T> sum = 0;
                                  for (std::size_t i = begin; i < end; ++i)
                                    sum += element<T>(seed, i, dist);
                                  return sum;
                                });
}

// The naive loop in the element's own type: for floats, every addition rounds to 24 bits, one
// after another, and the error grows with n.
template <typename T>
T sum_in_order(const T* x, std::size_t n) {
  T sum = 0;
  for (std::size_t i = 0; i < n; ++i)
    sum += x[i];
  return sum;
}

template <typename T>
double sum_of_magnitudes(const T* x, std::size_t n) {
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i)
    sum += std::fabs(static_cast<double>(x[i]));
  return sum;
}

// The error bound of a float sum, for every version in this lesson and CUB.
//
// Each rounding of an addition is off by at most u = 2^-24 of its result, so an element that goes
// through D additions on its way to the result carries at most D roundings, and the computed sum
// s' of a float sum s obeys |s' - s| <= D u sum|x_i| (to first order; N. Higham, "Accuracy and
// Stability of Numerical Algorithms", chapter 4). A sequential loop has D = n; a tree of pairs,
// D = ceil(log2 n). The versions here add at most a few elements in sequence per thread before
// their trees, except the grid-stride ones (v6, v7, CUB), whose threads each add about
// n / (threads in the grid) elements first, with at least 2^15 threads in the grid. So
// D = ceil(n / 2^15) + ceil(log2 n) + 4 covers them all.
inline double float_error_bound(std::size_t n, double sum_of_magnitudes) {
  const double unit_roundoff = std::ldexp(1.0, -24);
  const double depth = std::ceil(static_cast<double>(n) / 32768.0) +
                       std::ceil(std::log2(static_cast<double>(n) + 1.0)) + 4.0;
  return depth * unit_roundoff * sum_of_magnitudes;
}

// Whether a GPU sum passes: ints exactly; floats within the error bound (never NaN).
template <typename T>
bool sum_ok(T got, Wide<T> expected, double bound) {
  if constexpr (std::is_integral<T>::value) {
    (void)bound;
    return static_cast<Wide<T>>(got) == expected;
  } else {
    return std::fabs(static_cast<double>(got) - expected) <= bound;  // false for NaN
  }
}

}  // namespace lesson02
