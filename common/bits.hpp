// A value's bits, and back, on the CPU and the GPU alike: results compared bit for bit, float
// keys for sorting. Plain C++17 (compiled by nvcc as well, for device code).
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

}  // namespace course
