// The library a CUDA user calls for a GPU hash table: cuco::static_map, from cuCollections
// (header-only, https://github.com/NVIDIA/cuCollections). It is a row of the table only when the
// build names its headers (-DCOURSE_CUCO_INCLUDE_DIR, which defines LESSON04_HAVE_CUCO); without
// them why_no_cuco() says how to get it, and CucoTable does nothing.
//
// Used as its documentation shows: one static_map<uint32_t, uint32_t> made once with the lesson's
// slot count (cuco rounds it up to 4 times a prime), with its defaults, linear probing by a group
// of 4 threads and its default hash; then the bulk calls, insert_async of the pairs (keys[i], i)
// and find_async, each enqueued on the stream like the course's versions (insert and find would
// also wait for the GPU, and insert counts its insertions). Two things differ from the course's
// tables:
//   - insert, not insert-or-assign: a repeated key keeps the pair whose insert landed first, which
//     is any one of its occurrences, so its answer is checked as "an index holding that key";
//   - cuco reserves one key as its empty slot, so the table is made with a word that is neither
//     a key nor a query (free_key()), where the course's tables keep kEmptyKey beside the slots.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../reference.hpp"
#include "check.hpp"
#include "settings.cuh"

#ifdef LESSON04_HAVE_CUCO
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/version.h>

// The shim: this cuco snapshot names thrust::identity (its identity hash, and the always-true
// stencil of its bulk insert and find), which CCCL 3.0 (CUDA 13) removed in favour of
// cuda::std::identity. A CCCL before 3.0 still has it, so the functor is defined only from 3.0 on,
// as the old one was: identity<T> returns its argument, and identity<> forwards any argument.
#if THRUST_VERSION >= 300000
namespace thrust {
template <typename T = void>
struct identity {
  using argument_type = T;
  using result_type = T;
  __host__ __device__ constexpr const T& operator()(const T& x) const { return x; }
};
template <>
struct identity<void> {
  template <typename U>
  __host__ __device__ constexpr U&& operator()(U&& x) const noexcept {
    return static_cast<U&&>(x);
  }
};
}  // namespace thrust
#endif

#include <cuco/static_map.cuh>
#endif

namespace lesson04 {

// "" when the build has cuco; else how to get it.
inline std::string why_no_cuco() {
#ifdef LESSON04_HAVE_CUCO
  return "";
#else
  return "needs cuCollections: git clone https://github.com/NVIDIA/cuCollections, then "
         "-DCOURSE_CUCO_INCLUDE_DIR=<its include folder>";
#endif
}

// The bytes of cuco's table for `slots` (8 a slot, rounded up as cuco does), 0 without cuco.
inline std::size_t cuco_bytes(std::size_t slots) {
  return why_no_cuco().empty() ? 8 * (slots + slots / 16 + 64) : 0;
}

// The largest 32-bit word that is no key of `map` and no query of `absent`: cuco's empty-slot key.
inline std::uint32_t free_key(const Map& map, const std::vector<std::uint32_t>& absent) {
  for (std::uint32_t word = 0xFFFFFFFFu;; --word) {  // fewer than 2^32 keys and queries
    if (map.count(word) == 0 && std::find(absent.begin(), absent.end(), word) == absent.end())
      return word;
  }
}

#ifdef LESSON04_HAVE_CUCO
// The pair (keys[i], i) that insert reads, made as it reads it.
struct EntryOf {
  const std::uint32_t* keys;
  __host__ __device__ cuco::pair<std::uint32_t, std::uint32_t> operator()(std::uint32_t i) const {
    return {keys[i], i};
  }
};

class CucoTable {
 public:
  // `slots` as the course's tables take them (capacity_for), and `empty`, a word never inserted
  // nor asked for (free_key()).
  CucoTable(std::size_t slots, std::uint32_t empty)
      : map_(slots, cuco::empty_key<std::uint32_t>{empty},
             cuco::empty_value<std::uint32_t>{kNotFound}) {}
  // Every slot empty again.
  void clear(cudaStream_t stream = nullptr) { map_.clear_async(cuda::stream_ref{stream}); }
  // Inserts (keys[i], i) for i < n; a key already there keeps its value.
  void insert(const std::uint32_t* keys, std::size_t n, cudaStream_t stream = nullptr) {
    require_keys(n, map_.capacity());
    const auto first =
        thrust::make_transform_iterator(thrust::counting_iterator<std::uint32_t>(0), EntryOf{keys});
    map_.insert_async(first, first + n, cuda::stream_ref{stream});
  }
  // out[i]: the value of queries[i]'s key, or kNotFound.
  void find(const std::uint32_t* queries, std::size_t m, std::uint32_t* out,
            cudaStream_t stream = nullptr) const {
    map_.find_async(queries, queries + m, out, cuda::stream_ref{stream});
  }
  // The keys it holds (waits for the GPU), and its slots.
  std::size_t size() const { return map_.size(); }
  std::size_t capacity() const { return map_.capacity(); }

 private:
  cuco::static_map<std::uint32_t, std::uint32_t> map_;
};
#else
// Without cuco the rows are skipped (why_no_cuco()) and never call it.
class CucoTable {
 public:
  CucoTable(std::size_t, std::uint32_t) {}
  void clear(cudaStream_t = nullptr) {}
  void insert(const std::uint32_t*, std::size_t, cudaStream_t = nullptr) {}
  void find(const std::uint32_t*, std::size_t, std::uint32_t*, cudaStream_t = nullptr) const {}
  std::size_t size() const { return 0; }
  std::size_t capacity() const { return 0; }
};
#endif

// "" when every answer in `got` is right for a table that keeps any one occurrence of a repeated
// key: kNotFound where `expected` (std::unordered_map's answers) is kNotFound, else an index whose
// key is the key of `expected`'s index, so the query's own key.
inline std::string wrong_occurrences(const std::vector<std::uint32_t>& got,
                                     const std::vector<std::uint32_t>& expected,
                                     const std::vector<std::uint32_t>& keys) {
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const std::uint32_t e = expected[i];
    const bool right =
        e == kNotFound ? got[i] == kNotFound : got[i] < keys.size() && keys[got[i]] == keys[e];
    wrong += !right;
  }
  return wrong == 0 ? std::string() : course::format("%zu of %zu lookups wrong", wrong, got.size());
}

}  // namespace lesson04
