// Seeded, reproducible inputs.
//
// Every value is a pure function of (seed, index): random_u64(seed, i). So the same seed gives the
// same data on every machine, compiler and standard library (std::uniform_int_distribution does
// not promise that), and big inputs can be filled by many threads with identical results.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "bits.hpp"

// The generator runs on the GPU too (COURSE_HOST_DEVICE, bits.hpp), so a test can make inputs too
// large to copy, and check them against the same values made on the CPU.

namespace course {

// SplitMix64's output function (Steele, Lea and Flood, 2014): a bijection on 64-bit words whose
// output passes BigCrush when fed a counter.
COURSE_HOST_DEVICE constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The i-th 64-bit random word of the stream named by `seed`.
COURSE_HOST_DEVICE constexpr std::uint64_t random_u64(std::uint64_t seed, std::uint64_t index) {
  return mix64(mix64(seed) + (index + 1) * 0x9E3779B97F4A7C15ull);
}

// A uniform double in [0, 1) from the top 53 bits of a random word.
COURSE_HOST_DEVICE constexpr double unit_interval(std::uint64_t word) {
  return static_cast<double>(word >> 11) * (1.0 / 9007199254740992.0);
}

// Splits [0, n) into `slices` contiguous slices, at multiples of `grain` (so that a body working in
// words of `grain` items never has a word split between two slices), and runs body(slice, begin,
// end) for each on its own thread. Empty slices are skipped.
template <typename Body>
void for_each_slice(std::size_t n, unsigned slices, Body body, std::size_t grain = 1) {
  slices = std::max(1u, slices);
  const std::size_t grains = (n + grain - 1) / grain;
  const std::size_t grains_per_slice = (grains + slices - 1) / slices;
  std::vector<std::thread> threads;
  for (unsigned s = 0; s < slices; ++s) {
    const std::size_t begin = std::min(n, s * grains_per_slice * grain);
    const std::size_t end = std::min(n, (s + 1) * grains_per_slice * grain);
    if (begin < end) threads.emplace_back(body, s, begin, end);
  }
  for (auto& t : threads)
    t.join();
}

// Calls body(begin, end) on contiguous slices of [0, n): in parallel on every core for large n,
// in one call for small n. Slices are cut at multiples of `grain`, as for for_each_slice.
template <typename Body>
void parallel_for(std::size_t n, Body body, std::size_t grain = 1) {
  constexpr std::size_t kSerialBelow = std::size_t{1} << 20;
  if (n < kSerialBelow) {
    body(std::size_t{0}, n);
    return;
  }
  for_each_slice(
      n, std::thread::hardware_concurrency(),
      [&](unsigned, std::size_t begin, std::size_t end) { body(begin, end); }, grain);
}

// Byte i of random_bytes(n, seed), for any n > i: byte (i % 8) of random_u64(seed, i / 8). A
// part of the bytes can so be made without the rest (lesson 07's ranks each make their own share).
COURSE_HOST_DEVICE constexpr std::uint8_t random_byte(std::uint64_t seed, std::uint64_t i) {
  return static_cast<std::uint8_t>(random_u64(seed, i / 8) >> (8 * (i % 8)));
}

// n uniformly random bytes. Byte i is byte (i % 8) of random_u64(seed, i / 8).
inline std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint64_t seed) {
  std::vector<std::uint8_t> out(n);
  parallel_for(
      n,
      [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; i += 8) {
          const std::uint64_t word = random_u64(seed, i / 8);
          std::uint8_t bytes[8];
          for (int b = 0; b < 8; ++b)
            bytes[b] = static_cast<std::uint8_t>(word >> (8 * b));
          std::memcpy(out.data() + i, bytes, std::min<std::size_t>(8, end - i));
        }
      },
      8);
  return out;
}

// n integers uniform in [lo, hi] (inclusive; requires lo <= hi). The tiny modulo bias of
// (hi - lo + 1) against 2^64 is far below anything a test or benchmark could notice.
template <typename Int>
std::vector<Int> random_ints(std::size_t n, std::uint64_t seed, Int lo, Int hi) {
  std::vector<Int> out(n);
  const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;
  parallel_for(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const std::uint64_t word = random_u64(seed, i);
      const std::uint64_t offset = span == 0 ? word : word % span;  // span 0: the full 64 bits
      out[i] = static_cast<Int>(static_cast<std::uint64_t>(lo) + offset);
    }
  });
  return out;
}

// n reals uniform in [lo, hi).
template <typename Real>
std::vector<Real> random_reals(std::size_t n, std::uint64_t seed, Real lo, Real hi) {
  std::vector<Real> out(n);
  parallel_for(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const double u = unit_interval(random_u64(seed, i));
      const double x = static_cast<double>(lo) + (static_cast<double>(hi) - lo) * u;
      // Rounding to a narrower Real can land on hi itself; keep the interval half-open.
      const Real value = static_cast<Real>(x);
      out[i] = value < hi ? value : std::nextafter(hi, lo);
    }
  });
  return out;
}

}  // namespace course
