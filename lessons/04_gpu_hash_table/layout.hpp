// Lesson 04's tables in memory: the entries of the chained tables, the slots of open addressing,
// and the hashes that place a key. Plain C++17 for the CPU and the GPU, shared by reference.hpp,
// the kernels (kernels/) and the exercises (which are given the layout, not the kernels).
#pragma once

#include <cstdint>

#include "bits.hpp"  // COURSE_HOST_DEVICE

namespace lesson04 {

// A value is an index below 2^32 - 1, so that find can answer kNotFound for an absent key.
constexpr std::uint32_t kNotFound = 0xFFFFFFFFu;

// The book's hash. The course's copy of the book's Chinese edition prints `key & count`, where its
// prose says modulo: with 1024 buckets `&` gives bucket 0 or 1024, and 1024 is out of range.
COURSE_HOST_DEVICE inline std::uint32_t bucket_of(std::uint32_t key, std::uint32_t buckets) {
  return key % buckets;
}

// The hash of the open-addressing tables (v4, v5): it scrambles the key's bits, so that keys that
// are close (0, 1, 2, ...) land far apart. Two rounds of xor-shift and multiply by odd constants
// (those of MurmurHash3's 32-bit finaliser); each step can be undone, so no two keys collide
// before the modulo.
COURSE_HOST_DEVICE constexpr std::uint32_t mix32(std::uint32_t h) {
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h;
}

// Where a key starts in an open-addressing table of `count` slots (v4) or windows (v5): mix32(key)
// modulo count. With the book's hash, key % count (--book-hash), keys that are close fill
// neighbouring slots: a range of keys becomes one long run of full slots, and every probe that
// starts inside the run walks to its end.
enum class Hash { mixed, book };

COURSE_HOST_DEVICE inline std::uint32_t home_slot(Hash hash, std::uint32_t key,
                                                  std::uint32_t count) {
  return (hash == Hash::book ? key : mix32(key)) % count;
}

// Division by a divisor fixed before a kernel runs, as one multiply-high, an add and a shift
// (Granlund and Montgomery's method, 1994). NVIDIA's Nsight documentation ("Achieved IOPs") counts
// integer division and modulo as costly, below 20 instructions from compute capability 2.x on,
// which v8's passes, hashing every key in each kernel, would pay on every key. (CCCL releases newer
// than CUDA 13.0's have the same as cuda::fast_mod_div in <cuda/cmath>; the toolkit's CCCL 3.0 does
// not.) `divisor` is at least 1.
struct FastDivide {
  std::uint32_t divisor = 1;
  std::uint32_t multiplier = 1;
  std::uint32_t shift = 0;

  FastDivide() = default;
  explicit FastDivide(std::uint32_t d) : divisor(d) {
    while (shift < 32 && (std::uint64_t{1} << shift) < d)
      ++shift;  // 2^shift >= d
    multiplier = static_cast<std::uint32_t>(
        ((std::uint64_t{1} << 32) * ((std::uint64_t{1} << shift) - d)) / d + 1);
  }
  COURSE_HOST_DEVICE std::uint32_t quotient(std::uint32_t x) const {
    const auto high = static_cast<std::uint32_t>((std::uint64_t{multiplier} * x) >> 32);
    return static_cast<std::uint32_t>((std::uint64_t{high} + x) >> shift);
  }
  COURSE_HOST_DEVICE std::uint32_t remainder(std::uint32_t x) const {
    return x - quotient(x) * divisor;
  }
};

// home_slot with its modulo as a FastDivide: the same answer.
COURSE_HOST_DEVICE inline std::uint32_t home_slot(Hash hash, std::uint32_t key,
                                                  const FastDivide& count) {
  return count.remainder(hash == Hash::book ? key : mix32(key));
}

// ---- chained tables -----------------------------------------------------------------------------

// One entry of a chained table: the book's, with the value a 32-bit index instead of a void*.
struct Entry {
  std::uint32_t key;
  std::uint32_t value;
  Entry* next;
};

// ---- open addressing: one 64-bit slot per key
// ----------------------------------------------------

// A slot holds a key in its high 32 bits and the key's value in its low 32 bits, so one 64-bit
// compare-and-swap claims a slot and fills it. All ones marks a slot empty, so the key kEmptyKey
// cannot live in a slot: the tables keep it in one word on the side (0: absent, else
// pack(1, value)).
using Slot = unsigned long long;
constexpr std::uint32_t kEmptyKey = 0xFFFFFFFFu;
constexpr Slot kEmptySlot = ~Slot{0};

COURSE_HOST_DEVICE constexpr Slot pack(std::uint32_t key, std::uint32_t value) {
  return (static_cast<Slot>(key) << 32) | value;
}
COURSE_HOST_DEVICE constexpr std::uint32_t key_of(Slot slot) {
  return static_cast<std::uint32_t>(slot >> 32);
}
COURSE_HOST_DEVICE constexpr std::uint32_t value_of(Slot slot) {
  return static_cast<std::uint32_t>(slot);
}

}  // namespace lesson04
