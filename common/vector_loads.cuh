// 16-byte loads of any array. A thread that reads one uint4/float4/int4 (16 bytes) per load
// moves a warp's 512 bytes in one instruction, against 128 with 4-byte loads: the memory system
// needs that many bytes in flight to stream at full speed. The array's start need not be aligned:
// Aligned16 splits it into an unaligned head, a body of whole 16-byte vectors and a tail.
#pragma once

#include <cstddef>
#include <cstdint>

namespace course {

// The 16-byte vector type that holds 16 / sizeof(T) elements of T.
template <typename T>
struct Vector16 {
  using type = uint4;  // bytes and unsigned ints
};
template <>
struct Vector16<float> {
  using type = float4;
};
template <>
struct Vector16<int> {
  using type = int4;
};

// The elements of data[0, n), split for 16-byte loads: a head (fewer than kPerVector elements
// before the first 16-byte boundary), a body of `vectors` aligned 16-byte vectors, and a tail
// (fewer than kPerVector elements). Any pointer to T and any n work. Requires sizeof(T) to
// divide 16 and T to be aligned to its size.
template <typename T>
struct Aligned16 {
  static_assert(16 % sizeof(T) == 0, "Aligned16 needs an element size that divides 16");
  using Vector = typename Vector16<T>::type;
  static constexpr std::size_t kPerVector = 16 / sizeof(T);

  const T* data;
  std::size_t n;
  std::size_t head;     // elements before the first 16-byte boundary
  std::size_t vectors;  // whole 16-byte vectors after it

  __host__ __device__ Aligned16(const T* data_, std::size_t n_) : data(data_), n(n_) {
    const std::size_t misaligned = (reinterpret_cast<std::uintptr_t>(data) % 16) / sizeof(T);
    const std::size_t to_boundary = misaligned == 0 ? 0 : kPerVector - misaligned;
    head = n < to_boundary ? n : to_boundary;
    vectors = (n - head) / kPerVector;
  }
  __host__ __device__ const Vector* body() const {
    return reinterpret_cast<const Vector*>(data + head);
  }
  // Calls f(i) for the indices i of the head and the tail, one index per thread, for the grid's
  // first threads (there are fewer than 2 * kPerVector of them).
  template <typename F>
  __device__ void for_each_edge_index(std::size_t thread, F f) const {
    const std::size_t tail = head + vectors * kPerVector;
    if (thread < head) f(thread);
    if (thread < n - tail) f(tail + thread);
  }
  // Calls f(element) for the head and the tail, likewise.
  template <typename F>
  __device__ void for_each_edge(std::size_t thread, F f) const {
    for_each_edge_index(thread, [&](std::size_t i) { f(data[i]); });
  }
};

}  // namespace course
