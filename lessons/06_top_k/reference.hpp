// Lesson 06 on the CPU: what top-k means here, the inputs, the source's insertion list, the O(k)
// merge, the references and the checks every GPU result must pass. Plain C++17, shared by
// cpu.cpp, main.cu, test.cu and the exercises' tests; the list operations also compile for the GPU.
//
// Top-k, as the course defines it: the k largest values of the input, duplicates included, in
// descending order (std::partial_sort's answer, and torch.topk's), with the index of each where
// a version returns indices. The source's version (v0) means something else: the k largest
// *distinct* values. Both are checked, each against a reference with its own meaning.
//
// Every version compares order keys (course::order_key, common/bits.hpp): a 32-bit unsigned
// integer whose order is the value's. For ints, INT_MIN is key 0 and INT_MAX key 0xFFFFFFFF; for
// floats the order is IEEE 754 totalOrder, so -0.0 comes just below +0.0.
#pragma once

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "bits.hpp"
#include "cli.hpp"
#include "format.hpp"
#include "inputs.hpp"
#include "keys.hpp"

namespace lesson06 {

// The source's setup: k = 10 of 10^7 ints, blocks of 256 threads, and as many blocks as it takes to
// give every thread one value: (N + 255) / 256, 39,063 at the source's N (source_blocks).
constexpr std::size_t kSourceN = 10000000;
constexpr std::size_t kSourceK = 10;
constexpr int kSourceThreads = 256;

// The source's grid: one thread per value.
inline std::size_t source_blocks(std::size_t n, int threads) {
  return (n + static_cast<std::size_t>(threads) - 1) / static_cast<std::size_t>(threads);
}

// The course's grid for v1 and v2: 32 blocks, so that each thread's list sees many values and
// the blocks' lists that the second launch merges are few.
constexpr int kCourseBlocks = 32;

// ---- the inputs ---------------------------------------------------------------------------------

// The inputs (--dist):
//   source      the source's: random ints from 0 to 2^31 - 1 (rand()'s range), every even index
//               negated; as floats, the same divided by 2^31
//   equal       one negative value, everywhere
//   dups        64 distinct values, each about n / 64 times (as floats, quarters from -8 to 7.75,
//               the zeros with either sign)
//   ascending   n/2 below zero up to n/2 above it, one step at a time
//   descending  the same, from the top
//   extremes    ints: INT_MIN, INT_MAX, their neighbours and random ints; floats: -inf, +inf,
//               -FLT_MAX, FLT_MAX, -0.0, +0.0, denormals and ordinary floats
enum class Dist { source, equal, dups, ascending, descending, extremes };

inline const course::Names<Dist>& dists() {
  static const course::Names<Dist> names = {
      {"source", "random ints with every even index negated, as the source's", "seed"},
      {"equal", "one negative value"},
      {"dups", "64 distinct values"},
      {"ascending", "ascending"},
      {"descending", "descending"},
      {"extremes", "INT_MIN, INT_MAX (floats: infinities, -0.0, +0.0, denormals)"}};
  return names;
}

// Element i of n for `dist`: a pure function of (seed, i), so the GPU can make the inputs that
// are too large to copy (the tests past 2^31 elements).
template <typename T>
COURSE_HOST_DEVICE T element(std::uint64_t seed, std::size_t i, std::size_t n, Dist dist);

template <>
COURSE_HOST_DEVICE inline std::int32_t element<std::int32_t>(std::uint64_t seed, std::size_t i,
                                                             std::size_t n, Dist dist) {
  const std::uint64_t word = course::random_u64(seed, i);
  const auto half = static_cast<std::int64_t>(n / 2);
  const auto at = static_cast<std::int64_t>(i);
  switch (dist) {
    case Dist::equal:
      return -static_cast<std::int32_t>(1 + course::random_u64(seed, 0) % 1000000);
    case Dist::dups:
      return static_cast<std::int32_t>(word % 64) - 32;
    case Dist::ascending:
      return static_cast<std::int32_t>(at - half);
    case Dist::descending:
      return static_cast<std::int32_t>(half - at);
    case Dist::extremes: {
      // Every kind at fixed places, so even n = 2 holds INT_MIN and INT_MAX.
      const std::int32_t picks[] = {INT_MIN, INT_MAX, INT_MIN + 1, INT_MAX - 1};
      return i % 8 < 4 ? picks[i % 8] : static_cast<std::int32_t>(word >> 32);
    }
    case Dist::source:
    default: {
      const auto r = static_cast<std::int32_t>(word >> 33);  // 0 to 2^31 - 1
      return i % 2 == 0 ? -r : r;
    }
  }
}

template <>
COURSE_HOST_DEVICE inline float element<float>(std::uint64_t seed, std::size_t i, std::size_t n,
                                               Dist dist) {
  const std::uint64_t word = course::random_u64(seed, i);
  const double half = static_cast<double>(n / 2);
  switch (dist) {
    case Dist::equal:
      return -static_cast<float>(1.0 + course::unit_interval(course::random_u64(seed, 0)));
    case Dist::dups: {
      const float value = static_cast<float>(static_cast<int>(word % 64) - 32) * 0.25f;
      // Zero comes with either sign: -0.0 and +0.0 are different values in totalOrder.
      return value == 0.0f && ((word >> 40) & 1u) ? -0.0f : value;
    }
    case Dist::ascending:
      return static_cast<float>(static_cast<double>(i) - half);
    case Dist::descending:
      return static_cast<float>(half - static_cast<double>(i));
    case Dist::extremes: {
      const std::uint32_t sign = static_cast<std::uint32_t>(word >> 63) << 31;
      const std::uint32_t picks[] = {0xFF800000u,  // -inf
                                     0x7F800000u,  // +inf
                                     0xFF7FFFFFu,  // -FLT_MAX
                                     0x7F7FFFFFu,  // FLT_MAX
                                     0x80000000u,  // -0.0
                                     0x00000000u,  // +0.0
                                     sign | 1u};   // the smallest denormal, either sign
      return i % 8 < 7 ? course::from_bits<float>(picks[i % 8])
                       : static_cast<float>((2.0 * course::unit_interval(word) - 1.0) * 1000.0);
    }
    case Dist::source:
    default: {
      const double r = static_cast<double>(word >> 33) / 2147483648.0;
      return static_cast<float>(i % 2 == 0 ? -r : r);
    }
  }
}

template <typename T>
std::vector<T> make_input(std::size_t n, Dist dist, std::uint64_t seed) {
  std::vector<T> out(n);
  course::parallel_for(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      out[i] = element<T>(seed, i, n, dist);
  });
  return out;
}

template <typename T>
std::vector<Key> keys_of(const std::vector<T>& values) {
  std::vector<Key> keys(values.size());
  std::transform(values.begin(), values.end(), keys.begin(),
                 [](T x) { return course::order_key(x); });
  return keys;
}

template <typename T>
std::vector<T> values_of(const std::vector<Key>& keys) {
  std::vector<T> values(keys.size());
  std::transform(keys.begin(), keys.end(), values.begin(), course::from_order_key<T>);
  return values;
}

// ---- the source's insertion list, and the O(k) merge (the GPU versions use these too) -----------

// The source's insert_value, in the source's order: `list` holds k keys in descending order; `key`
// is dropped if it equals a key already held (a scan of all k) or is not above the last key;
// otherwise it goes in at its place and the last key drops out. So the list keeps the k largest
// *distinct* keys it has been given, and every key costs the scan of k, even the many that the
// last key alone would reject.
COURSE_HOST_DEVICE inline void insert_distinct(Key* list, int k, Key key) {
  for (int i = 0; i < k; ++i) {
    if (list[i] == key) return;  // a duplicate
  }
  if (key <= list[k - 1]) return;  // not above the last
  int i = k - 1;
  for (; i > 0 && list[i - 1] < key; --i)
    list[i] = list[i - 1];
  list[i] = key;
}

// The course's insertion: the same, but a duplicate is kept, so the list keeps the k largest keys
// with multiplicity.
COURSE_HOST_DEVICE inline void insert_kept(Key* list, int k, Key key) {
  if (key <= list[k - 1]) return;  // an equal key changes no value in the list
  int i = k - 1;
  for (; i > 0 && list[i - 1] < key; --i)
    list[i] = list[i - 1];
  list[i] = key;
}

// The source's open question, answered: the k largest of two descending lists of k, in descending
// order, by walking both lists once with two pointers. O(k), where inserting one list's keys into
// the other one at a time is O(k^2).
COURSE_HOST_DEVICE inline void merge_top_k(const Key* a, const Key* b, int k, Key* out) {
  int i = 0;
  int j = 0;
  for (int o = 0; o < k; ++o)
    out[o] = a[i] >= b[j] ? a[i++] : b[j++];
}

// How a list starts. lowest: every slot the lowest key, as the source's GPU lists start (a loop
// stores INT_MIN in each). source_cpu: the source's CPU list, `{0}`, every slot 0, so a value at or
// below 0 never gets in.
enum class ListStart { lowest, source_cpu };

COURSE_HOST_DEVICE inline void start_list(Key* list, int k, ListStart start) {
  for (int i = 0; i < k; ++i)
    list[i] = start == ListStart::source_cpu ? kZeroKey : kLowestKey;
}

// ---- the references -----------------------------------------------------------------------------

// The course's top-k: the k largest values with duplicates, descending (std::nth_element, then a
// sort of the k).
template <typename T>
std::vector<T> reference_top_k(const std::vector<T>& in, std::size_t k) {
  std::vector<Key> keys = keys_of(in);
  std::nth_element(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(k - 1), keys.end(),
                   std::greater<Key>());
  keys.resize(k);
  std::sort(keys.begin(), keys.end(), std::greater<Key>());
  return values_of<T>(keys);
}

// The source's meaning: the k largest distinct values, descending; when there are fewer than k
// distinct values, the rest of the list is the lowest value (the slot's start).
template <typename T>
std::vector<T> reference_top_k_distinct(const std::vector<T>& in, std::size_t k) {
  std::vector<Key> keys = keys_of(in);
  std::sort(keys.begin(), keys.end(), std::greater<Key>());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  keys.resize(k, kLowestKey);
  return values_of<T>(keys);
}

// The source's CPU version: one insertion list over the whole input. O(n k) at worst.
template <typename T>
std::vector<T> source_cpu_top_k(const std::vector<T>& in, std::size_t k,
                                ListStart start = ListStart::lowest) {
  std::vector<Key> list(k);
  start_list(list.data(), static_cast<int>(k), start);
  for (const T x : in)
    insert_distinct(list.data(), static_cast<int>(k), course::order_key(x));
  return values_of<T>(list);
}

// std::partial_sort of the keys: the other CPU method.
template <typename T>
std::vector<T> partial_sort_top_k(const std::vector<T>& in, std::size_t k) {
  std::vector<Key> keys = keys_of(in);
  std::partial_sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(k), keys.end(),
                    std::greater<Key>());
  keys.resize(k);
  return values_of<T>(keys);
}

// ---- the checks ---------------------------------------------------------------------------------

// A value's bits, with -0.0 read as +0.0 when zeros_equal: the libraries' radix sorts treat the
// two zeros as one key, so they may pick and order them differently.
template <typename T>
std::uint32_t compared_bits(T x, bool zeros_equal) {
  const std::uint32_t bits = course::bits_of(x);
  return zeros_equal && std::is_same<T, float>::value && bits == 0x80000000u ? 0u : bits;
}

// "" when `values` (k of them) are `expected` bit for bit and, if `indices` is given, every index
// is below n, none comes twice, and in[index] is the value beside it; otherwise what is wrong.
template <typename T>
std::string top_k_mismatch(const std::vector<T>& values, const std::vector<std::size_t>* indices,
                           const std::vector<T>& expected, const std::vector<T>& in,
                           bool zeros_equal = false) {
  if (values.size() != expected.size()) {
    return course::format("got %zu values, expected %zu", values.size(), expected.size());
  }
  for (std::size_t j = 0; j < values.size(); ++j) {
    if (compared_bits(values[j], zeros_equal) != compared_bits(expected[j], zeros_equal)) {
      std::size_t wrong = 0;
      for (std::size_t m = j; m < values.size(); ++m)
        wrong += compared_bits(values[m], zeros_equal) != compared_bits(expected[m], zeros_equal);
      return course::format(
          "%zu of %zu values differ; first at [%zu]: got %.9g (0x%08x), "
          "expected %.9g (0x%08x)",
          wrong, values.size(), j, static_cast<double>(values[j]),
          static_cast<unsigned>(course::bits_of(values[j])), static_cast<double>(expected[j]),
          static_cast<unsigned>(course::bits_of(expected[j])));
    }
  }
  if (indices == nullptr) return "";
  if (indices->size() != values.size()) {
    return course::format("got %zu indices for %zu values", indices->size(), values.size());
  }
  for (std::size_t j = 0; j < indices->size(); ++j) {
    const std::size_t i = (*indices)[j];
    if (i >= in.size()) return course::format("index [%zu] = %zu is past the input", j, i);
    if (course::bits_of(in[i]) != course::bits_of(values[j])) {
      return course::format("index [%zu] = %zu points at %.9g, not at the value %.9g", j, i,
                            static_cast<double>(in[i]), static_cast<double>(values[j]));
    }
  }
  std::vector<std::size_t> sorted = *indices;
  std::sort(sorted.begin(), sorted.end());
  const auto twice = std::adjacent_find(sorted.begin(), sorted.end());
  if (twice != sorted.end()) return course::format("index %zu comes twice", *twice);
  return "";
}

// An unsorted top-k (cub::DeviceTopK's) put in the order top_k_mismatch expects: values
// descending by their order key, each index moved with its value. Checked so, an unsorted result
// is checked as a multiset.
template <typename T>
void sort_descending(std::vector<T>* values, std::vector<std::size_t>* indices) {
  std::vector<std::size_t> place(values->size());
  std::iota(place.begin(), place.end(), std::size_t{0});
  std::stable_sort(place.begin(), place.end(), [&](std::size_t a, std::size_t b) {
    return course::order_key((*values)[a]) > course::order_key((*values)[b]);
  });
  const std::vector<T> v = *values;
  const std::vector<std::size_t> i = *indices;  // empty, or one index per value
  for (std::size_t j = 0; j < place.size(); ++j) {
    (*values)[j] = v[place[j]];
    if (!i.empty()) (*indices)[j] = i[place[j]];
  }
}

// ---- radix select, on the CPU (the model of v3, and the answer key of exercise 4) --------------

// A digit of the key: `bits` bits, starting `shift` bits from the bottom. v3 reads a key's 32
// bits as three digits, from the top: 11, 11 and 10 bits.
struct Digit {
  int shift;
  int bits;
  COURSE_HOST_DEVICE unsigned bins() const { return 1u << bits; }
  COURSE_HOST_DEVICE unsigned of(Key key) const { return (key >> shift) & (bins() - 1u); }
  COURSE_HOST_DEVICE Key mask() const { return static_cast<Key>(bins() - 1u) << shift; }
};
constexpr int kDigits = 3;
COURSE_HOST_DEVICE constexpr Digit digit_plan(int round) {
  return round == 0 ? Digit{21, 11} : round == 1 ? Digit{10, 11} : Digit{0, 10};
}
constexpr unsigned kMaxBins = 2048;

// The histogram of `digit` over the keys whose bits under prefix_mask equal `prefix`: one pass of
// radix select.
inline std::vector<std::uint64_t> digit_histogram(const std::vector<Key>& keys, Digit digit,
                                                  Key prefix, Key prefix_mask) {
  std::vector<std::uint64_t> bins(digit.bins(), 0);
  for (const Key key : keys) {
    if ((key & prefix_mask) == prefix) ++bins[digit.of(key)];
  }
  return bins;
}

// The choice of bucket: the bin, counted from the top, that holds the `remaining`-th largest key
// (1 <= remaining <= the histogram's total), and how many keys of that bin are still wanted once
// every key of the bins above it is taken.
struct BucketChoice {
  unsigned bucket;
  std::uint64_t remaining;
};

inline BucketChoice choose_bucket(const std::vector<std::uint64_t>& bins, std::uint64_t remaining) {
  std::uint64_t above = 0;
  for (std::size_t b = bins.size(); b-- > 0;) {
    if (above + bins[b] >= remaining) {
      return {static_cast<unsigned>(b), remaining - above};
    }
    above += bins[b];
  }
  return {0, remaining - above};  // never reached when remaining <= the total
}

// The k-th largest key (1 <= k <= n), by radix select: three passes of digit_histogram and
// choose_bucket. The model v3 follows, and the check of exercise 4.
inline Key radix_select_kth(const std::vector<Key>& keys, std::uint64_t k) {
  Key prefix = 0;
  Key mask = 0;
  for (int round = 0; round < kDigits; ++round) {
    const Digit digit = digit_plan(round);
    const BucketChoice choice = choose_bucket(digit_histogram(keys, digit, prefix, mask), k);
    prefix |= static_cast<Key>(choice.bucket) << digit.shift;
    mask |= digit.mask();
    k = choice.remaining;
  }
  return prefix;
}

// ---- the source's limits ------------------------------------------------------------------------

// Shared memory the source's tree needs: one list of k keys per thread.
inline std::size_t lists_bytes(int threads, std::size_t k) {
  return static_cast<std::size_t>(threads) * k * sizeof(Key);
}

}  // namespace lesson06
