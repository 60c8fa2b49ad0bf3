// A value's bits, and back, on the CPU and the GPU alike: results compared bit for bit, and
// order keys for sorting and selecting. Plain C++17 (compiled by nvcc as well, for device code).
#pragma once

#include <cstdint>
#include <cstring>

// Functions that run on the CPU and, compiled by nvcc, on the GPU too.
#ifdef __CUDACC__
#define COURSE_HOST_DEVICE __host__ __device__
#else
#define COURSE_HOST_DEVICE
#endif

namespace course {

// The bits of a 32-bit value (a float result, shown in hex, or compared bit for bit).
template <typename T>
COURSE_HOST_DEVICE std::uint32_t bits_of(T value) {
  static_assert(sizeof(T) == sizeof(std::uint32_t), "bits_of takes 32-bit values");
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

// The 32-bit value whose bits are `bits`: bits_of's inverse.
template <typename T>
COURSE_HOST_DEVICE T from_bits(std::uint32_t bits) {
  static_assert(sizeof(T) == sizeof(std::uint32_t), "from_bits makes 32-bit values");
  T value{};
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// Order keys: a 32-bit value as an unsigned integer whose order is the value's, so that sorting
// and selecting (lessons 05 and 06) compare one kind of integer whatever the type, and a radix
// method can read the value's digits from the top.
//
// For a float the order is IEEE 754's totalOrder: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf
// < +NaN. That is what the float's bits give when read as a sign-magnitude integer, so: flip every
// bit of a negative float, and only the sign bit of a positive one. For a 32-bit int, flipping the
// sign bit turns two's complement into offset binary: INT_MIN becomes 0, INT_MAX 0xFFFFFFFF.
COURSE_HOST_DEVICE inline std::uint32_t order_key(float x) {
  const std::uint32_t bits = bits_of(x);
  return (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
}
COURSE_HOST_DEVICE inline std::uint32_t order_key(std::int32_t x) {
  return bits_of(x) ^ 0x80000000u;
}

// The value whose order key is `key`: order_key's inverse, for float or std::int32_t.
template <typename T>
COURSE_HOST_DEVICE T from_order_key(std::uint32_t key);
template <>
COURSE_HOST_DEVICE inline float from_order_key<float>(std::uint32_t key) {
  return from_bits<float>((key & 0x80000000u) ? key & 0x7FFFFFFFu : ~key);
}
template <>
COURSE_HOST_DEVICE inline std::int32_t from_order_key<std::int32_t>(std::uint32_t key) {
  return from_bits<std::int32_t>(key ^ 0x80000000u);
}

}  // namespace course
