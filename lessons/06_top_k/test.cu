// Lesson 06's tests. On the CPU: the order keys against the values' own order, each reference
// against a full sort or a set, the source's insertion list (and its `{INT_MIN}` start, which fails
// on negative inputs), the O(k) merge against std::merge, radix select's CPU model against
// std::nth_element, and the check against results broken on purpose. On the GPU: every version,
// CUB and Thrust against the references, on every input, both types, at the contract's sizes and
// many k, into poisoned output with guard zones; every index against the input; v0 to v2 at their
// limits and other grids; radix select at ties, k = n and every digit; repeated runs; past 2^31
// elements, checked on the GPU.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "kernels.cuh"
#include "reference.hpp"
#include "testing.hpp"

namespace {

using lesson06::Dist;
using lesson06::Key;

const Dist kDists[] = {Dist::source,    Dist::equal,      Dist::dups,
                       Dist::ascending, Dist::descending, Dist::extremes};

// The oracle: sort every key, descending, and keep k.
template <typename T>
std::vector<T> full_sort_top_k(const std::vector<T>& in, std::size_t k) {
  std::vector<Key> keys = lesson06::keys_of(in);
  std::sort(keys.begin(), keys.end(), std::greater<Key>());
  keys.resize(k);
  return lesson06::values_of<T>(keys);
}

// The source's meaning, by a set: the k largest distinct keys, then the lowest key.
template <typename T>
std::vector<T> set_top_k_distinct(const std::vector<T>& in, std::size_t k) {
  const std::vector<Key> keys = lesson06::keys_of(in);
  const std::set<Key, std::greater<Key>> distinct(keys.begin(), keys.end());
  std::vector<Key> out(distinct.begin(), distinct.end());
  out.resize(k, lesson06::kLowestKey);
  return lesson06::values_of<T>(out);
}

// The k values the tests try for an input of n: 1, a few around the warp and the source's wall,
// a few larger, and n itself.
std::vector<std::size_t> ks_for(std::size_t n) {
  std::vector<std::size_t> ks;
  for (std::size_t k : {std::size_t{1}, std::size_t{10}, std::size_t{32}, std::size_t{33},
                        std::size_t{100}, std::size_t{1024}, std::size_t{5000}, n}) {
    if (k <= n && std::find(ks.begin(), ks.end(), k) == ks.end()) ks.push_back(k);
  }
  return ks;
}

}  // namespace

// ---- CPU ----------------------------------------------------------------------------------------

TEST_CASE("order keys order ints and floats as their values", "[cpu]") {
  CHECK(course::order_key(INT_MIN) == 0u);
  CHECK(course::order_key(-1) == 0x7FFFFFFFu);
  CHECK(course::order_key(0) == lesson06::kZeroKey);
  CHECK(course::order_key(INT_MAX) == 0xFFFFFFFFu);
  CHECK(course::order_key(0.0f) == lesson06::kZeroKey);
  CHECK(course::order_key(-0.0f) < course::order_key(0.0f));
  const std::vector<std::int32_t> ints =
      lesson06::make_input<std::int32_t>(100000, Dist::extremes, course::test::seed());
  const std::vector<float> floats =
      lesson06::make_input<float>(100000, Dist::extremes, course::test::seed());
  for (std::size_t i = 1; i < ints.size(); ++i) {
    INFO(ints[i - 1] << " and " << ints[i]);
    REQUIRE((ints[i - 1] < ints[i]) ==
            (course::order_key(ints[i - 1]) < course::order_key(ints[i])));
    REQUIRE(course::from_order_key<std::int32_t>(course::order_key(ints[i])) == ints[i]);
    const bool zeros = floats[i - 1] == 0.0f && floats[i] == 0.0f;
    if (!zeros) {  // the float order, but for the two zeros, which differ by their sign bit
      REQUIRE((floats[i - 1] < floats[i]) ==
              (course::order_key(floats[i - 1]) < course::order_key(floats[i])));
    }
    REQUIRE(course::bits_of(course::from_order_key<float>(course::order_key(floats[i]))) ==
            course::bits_of(floats[i]));
  }
}

TEST_CASE("the inputs hold what they promise", "[cpu]") {
  const std::uint64_t seed = course::test::seed();
  const std::size_t n = 100000;
  const auto source_ints = lesson06::make_input<std::int32_t>(n, Dist::source, seed);
  for (std::size_t i = 0; i < n; i += 2)
    REQUIRE(source_ints[i] <= 0);  // every even index negated
  CHECK(*std::max_element(source_ints.begin(), source_ints.end()) > 0);
  const auto equal = lesson06::make_input<std::int32_t>(n, Dist::equal, seed);
  CHECK(std::count(equal.begin(), equal.end(), equal[0]) == static_cast<std::ptrdiff_t>(n));
  CHECK(equal[0] < 0);
  const auto dups = lesson06::make_input<float>(n, Dist::dups, seed);
  const std::vector<Key> dup_keys = lesson06::keys_of(dups);
  const std::set<Key> dup_bits(dup_keys.begin(), dup_keys.end());
  CHECK(dup_bits.size() == 65);  // 64 values, zero with either sign
  const auto ascending = lesson06::make_input<std::int32_t>(n, Dist::ascending, seed);
  CHECK(std::is_sorted(ascending.begin(), ascending.end()));
  const auto descending = lesson06::make_input<float>(n, Dist::descending, seed);
  CHECK(std::is_sorted(descending.rbegin(), descending.rend()));
  const auto extremes = lesson06::make_input<std::int32_t>(2, Dist::extremes, seed);
  CHECK(extremes == std::vector<std::int32_t>{INT_MIN, INT_MAX});
  CHECK(lesson06::make_input<float>(1000, Dist::source, seed) ==
        lesson06::make_input<float>(1000, Dist::source, seed));
  CHECK(lesson06::make_input<float>(1000, Dist::source, seed) !=
        lesson06::make_input<float>(1000, Dist::source, seed + 1));
  REQUIRE_THROWS(lesson06::dists().parse("gaussian"));
}

TEST_CASE("the input seed (old name) is the input source, for a release", "[cpu]") {
  CHECK(lesson06::dists().parse("seed") == lesson06::dists().parse("source"));
  CHECK(lesson06::dists().name(lesson06::dists().parse("seed")) == "source");
}

TEST_CASE("the references match a full sort and a set, on every input", "[cpu]") {
  for (Dist dist : kDists) {
    for (std::size_t n :
         {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{1000}, std::size_t{20011}}) {
      const auto ints = lesson06::make_input<std::int32_t>(n, dist, course::test::seed());
      const auto floats = lesson06::make_input<float>(n, dist, course::test::seed());
      for (std::size_t k : ks_for(n)) {
        CAPTURE(lesson06::dists().name(dist), n, k);
        REQUIRE(lesson06::reference_top_k(ints, k) == full_sort_top_k(ints, k));
        REQUIRE(lesson06::partial_sort_top_k(ints, k) == full_sort_top_k(ints, k));
        REQUIRE(lesson06::reference_top_k_distinct(ints, k) == set_top_k_distinct(ints, k));
        REQUIRE(lesson06::top_k_mismatch(lesson06::reference_top_k(floats, k), nullptr,
                                         full_sort_top_k(floats, k), floats) == "");
        REQUIRE(lesson06::top_k_mismatch(lesson06::reference_top_k_distinct(floats, k), nullptr,
                                         set_top_k_distinct(floats, k), floats) == "");
      }
    }
  }
}

TEST_CASE("the source's insertion list keeps the k largest distinct values", "[cpu]") {
  for (Dist dist : kDists) {
    for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{3001}}) {
      const auto in = lesson06::make_input<std::int32_t>(n, dist, course::test::seed());
      for (std::size_t k : {std::size_t{1}, std::size_t{2}, std::size_t{10}, std::size_t{48}}) {
        CAPTURE(lesson06::dists().name(dist), n, k);
        REQUIRE(lesson06::source_cpu_top_k(in, k) == set_top_k_distinct(in, k));
      }
    }
  }
  // Its meaning is not the course's: with duplicates among the largest, the two differ.
  const auto dups = lesson06::make_input<std::int32_t>(1000, Dist::dups, course::test::seed());
  CHECK(lesson06::source_cpu_top_k(dups, 10) != lesson06::reference_top_k(dups, 10));
}

TEST_CASE("the source's CPU list, started at {0}, loses the values at or below zero", "[cpu]") {
  const auto source_input =
      lesson06::make_input<std::int32_t>(10000, Dist::source, course::test::seed());
  const auto equal = lesson06::make_input<std::int32_t>(10000, Dist::equal, course::test::seed());
  const auto start = lesson06::ListStart::source_cpu;
  // Right by luck on the source's input, whose 10 largest are far above 0 ...
  CHECK(lesson06::source_cpu_top_k(source_input, 10, start) ==
        set_top_k_distinct(source_input, 10));
  // ... and wrong when fewer than k distinct values are above 0: every slot keeps its 0, a value
  // the input does not hold.
  const auto got = lesson06::source_cpu_top_k(equal, 10, start);
  CHECK(got != set_top_k_distinct(equal, 10));
  CHECK(std::count(got.begin(), got.end(), 0) == 10);
}

TEST_CASE("v0's grid is the source's, one thread per value, and v1 and v2 take 32 blocks",
          "[cpu]") {
  const lesson06::Launch source;
  CHECK(lesson06::v0_blocks(lesson06::kSourceN, source) == 39063);  // (10^7 + 255) / 256
  CHECK(lesson06::v0_blocks(256, source) == 1);
  CHECK(lesson06::v0_blocks(257, source) == 2);
  CHECK(lesson06::merge_blocks(source) == 32);
  const lesson06::Launch chosen{nullptr, 128, 7};
  CHECK(lesson06::v0_blocks(lesson06::kSourceN, chosen) == 7);
  CHECK(lesson06::merge_blocks(chosen) == 7);
}

TEST_CASE("insert_kept keeps duplicates and merge_top_k is std::merge's first k", "[cpu]") {
  std::mt19937_64 rng(course::test::seed());
  for (int trial = 0; trial < 200; ++trial) {
    const int k = 1 + static_cast<int>(rng() % 64);
    std::vector<Key> a(k);
    std::vector<Key> b(k);
    for (int i = 0; i < k; ++i) {
      a[i] = static_cast<Key>(rng() % 16);  // few values: many duplicates
      b[i] = static_cast<Key>(rng() % 16);
    }
    // insert_kept from an empty list gives the k largest of a with duplicates.
    std::vector<Key> list(k, lesson06::kLowestKey);
    for (Key x : a)
      lesson06::insert_kept(list.data(), k, x);
    std::vector<Key> sorted_a = a;
    std::sort(sorted_a.begin(), sorted_a.end(), std::greater<Key>());
    REQUIRE(list == sorted_a);
    std::vector<Key> sorted_b = b;
    std::sort(sorted_b.begin(), sorted_b.end(), std::greater<Key>());
    std::vector<Key> both(2 * k);
    std::merge(sorted_a.begin(), sorted_a.end(), sorted_b.begin(), sorted_b.end(), both.begin(),
               std::greater<Key>());
    both.resize(k);
    std::vector<Key> merged(k);
    lesson06::merge_top_k(sorted_a.data(), sorted_b.data(), k, merged.data());
    REQUIRE(merged == both);
  }
}

TEST_CASE("radix select's CPU model finds the k-th largest key", "[cpu]") {
  for (Dist dist : kDists) {
    const auto in = lesson06::make_input<float>(20011, dist, course::test::seed());
    std::vector<Key> keys = lesson06::keys_of(in);
    for (std::size_t k : {std::size_t{1}, std::size_t{2}, std::size_t{100}, std::size_t{10005},
                          std::size_t{20011}}) {
      CAPTURE(lesson06::dists().name(dist), k);
      std::vector<Key> sorted = keys;
      std::sort(sorted.begin(), sorted.end(), std::greater<Key>());
      REQUIRE(lesson06::radix_select_kth(keys, k) == sorted[k - 1]);
    }
  }
  // The choice of bucket, by hand: bins {4, 0, 3, 2} from the bottom; counted from the top, the
  // 1st and 2nd largest are in bin 3, the 3rd to 5th in bin 2, the 6th in bin 0.
  const std::vector<std::uint64_t> bins = {4, 0, 3, 2};
  CHECK(lesson06::choose_bucket(bins, 2).bucket == 3);
  CHECK(lesson06::choose_bucket(bins, 3).bucket == 2);
  CHECK(lesson06::choose_bucket(bins, 3).remaining == 1);
  CHECK(lesson06::choose_bucket(bins, 6).bucket == 0);
  CHECK(lesson06::choose_bucket(bins, 9).remaining == 4);
  const lesson06::Digit top = lesson06::digit_plan(0);
  const auto histogram =
      lesson06::digit_histogram({0xFFFFFFFFu, 0xFFE00000u, 0x00000001u}, top, 0, 0);
  CHECK(histogram[2047] == 2);
  CHECK(histogram[0] == 1);
}

TEST_CASE("the check catches a wrong value, a wrong index and an index twice", "[cpu]") {
  const auto in = lesson06::make_input<float>(1000, Dist::dups, course::test::seed());
  const std::vector<float> expected = lesson06::reference_top_k(in, 50);
  std::vector<std::size_t> order(in.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return course::order_key(in[a]) > course::order_key(in[b]);
  });
  std::vector<std::size_t> indices(order.begin(), order.begin() + 50);
  CHECK(lesson06::top_k_mismatch(expected, &indices, expected, in) == "");
  std::vector<float> values = expected;
  values[7] = 1e9f;
  CHECK(lesson06::top_k_mismatch(values, nullptr, expected, in) != "");
  std::vector<std::size_t> wrong = indices;
  std::swap(wrong[0], wrong[49]);  // each index now points at another value
  CHECK(lesson06::top_k_mismatch(expected, &wrong, expected, in) != "");
  wrong = indices;
  wrong[1] = wrong[0];  // the same element twice (same value: only distinctness catches it)
  if (in[wrong[0]] == expected[1])
    CHECK(lesson06::top_k_mismatch(expected, &wrong, expected, in) != "");
  wrong = indices;
  wrong[3] = in.size();
  CHECK(lesson06::top_k_mismatch(expected, &wrong, expected, in) != "");
  // Signed zeros: different values, unless the check is told they are the same.
  const std::vector<float> zeros = {0.0f, -0.0f};
  const std::vector<float> swapped = {-0.0f, 0.0f};
  CHECK(lesson06::top_k_mismatch(swapped, nullptr, zeros, zeros) != "");
  CHECK(lesson06::top_k_mismatch(swapped, nullptr, zeros, zeros, true) == "");
}

TEST_CASE("an unsorted top-k is checked as a multiset once put in order", "[cpu]") {
  const std::vector<float> in = {5.0f, -0.0f, 9.0f, 3.0f, 7.0f, 0.0f};
  const std::vector<float> expected = {9.0f, 7.0f, 5.0f};
  std::vector<float> values = {5.0f, 9.0f, 7.0f};  // the right three, unsorted, as DeviceTopK may
  std::vector<std::size_t> indices = {0, 2, 4};
  CHECK_FALSE(lesson06::top_k_mismatch(values, &indices, expected, in).empty());
  lesson06::sort_descending(&values, &indices);
  CHECK(lesson06::top_k_mismatch(values, &indices, expected, in).empty());
  CHECK(indices == std::vector<std::size_t>{2, 4, 0});
  std::vector<float> wrong = {5.0f, 9.0f, 3.0f};  // a wrong multiset stays wrong in any order
  std::vector<std::size_t> wrong_indices = {0, 2, 3};
  lesson06::sort_descending(&wrong, &wrong_indices);
  CHECK_FALSE(lesson06::top_k_mismatch(wrong, &wrong_indices, expected, in).empty());
}

TEST_CASE("the source's limits: threads x k keys in 48 KiB", "[cpu]") {
  lesson06::Launch launch;
  CHECK(lesson06::source_limit(1000, 48, launch) == "");
  CHECK(lesson06::source_limit(1000, 49, launch) != "");
  launch.threads = 128;
  CHECK(lesson06::source_limit(1000, 96, launch) == "");
  CHECK(lesson06::source_limit(1000, 97, launch) != "");
  launch.threads = 32;
  CHECK(lesson06::source_limit(1000, 384, launch) == "");
  launch.threads = 100;
  CHECK(lesson06::source_limit(1000, 1, launch) != "");
  CHECK(lesson06::v4_limit(1000, 32, launch) == "");
  CHECK(lesson06::v4_limit(1000, 33, launch) != "");
}

TEST_CASE("v5's plan: a threshold rank above the sample's spread, room for twice the keys kept",
          "[cpu]") {
  CHECK(lesson06::filter_plan(lesson06::kFewestSampled - 1, 10).rank == 0);  // too few: v3
  CHECK(lesson06::filter_plan(10000000, 10000000 / 8).rank == 0);            // an eighth kept: v3
  for (std::size_t n : {lesson06::kFewestSampled, std::size_t{10000000}, std::size_t{1} << 31}) {
    for (std::size_t k : {std::size_t{1}, std::size_t{10}, std::size_t{1024}, std::size_t{16384}}) {
      const lesson06::FilterPlan plan = lesson06::filter_plan(n, k);
      if (plan.rank == 0) continue;
      CAPTURE(n, k, plan.rank, plan.most_kept);
      const double mu = static_cast<double>(lesson06::kSamples) * k / n;
      CHECK(plan.rank >= mu + 4 * std::sqrt(mu) + 2);
      CHECK(plan.rank <= mu + 4 * std::sqrt(mu) + 3);
      const double expected = static_cast<double>(n) * plan.rank / lesson06::kSamples;
      CHECK(static_cast<double>(plan.most_kept) >= std::min(2 * expected, static_cast<double>(n)));
      CHECK(plan.most_kept <= n);
    }
  }
  CHECK(lesson06::filter_plan(10000000, 10).rank == 3);
  CHECK(lesson06::filter_plan(10000000, 16384).rank == 31);
  // Every sample in its own stride, and every place in the input.
  for (std::size_t n : {lesson06::kFewestSampled, std::size_t{10000019}, std::size_t{1} << 33}) {
    const std::size_t stride = n / lesson06::kSamples;
    for (unsigned i = 0; i < lesson06::kSamples; ++i) {
      const std::size_t at = lesson06::sample_place(i, n);
      if (at / stride != i || at >= n) FAIL("sample " << i << " of n = " << n << " at " << at);
    }
  }
  CHECK(lesson06::winner_sort_for(lesson06::kRankSortMaxK) == lesson06::WinnerSort::rank);
  CHECK(lesson06::winner_sort_for(lesson06::kRankSortMaxK + 1) == lesson06::WinnerSort::chunks);
  CHECK(lesson06::winner_sort_for(lesson06::kChunkSortMaxK) == lesson06::WinnerSort::chunks);
  CHECK(lesson06::winner_sort_for(lesson06::kChunkSortMaxK + 1) == lesson06::WinnerSort::cub);
  CHECK(lesson06::winner_sort_for(16384, 16000) == lesson06::WinnerSort::cub);
}

// ---- GPU ----------------------------------------------------------------------------------------

namespace {

// One version's (or library's) run into poisoned output with guard zones, checked: "" when the
// values are `expected` bit for bit, every index (when it returns them) points at its value and
// none comes twice, nothing was written outside the output, and the input is unchanged.
template <typename T, typename Run>
std::string checked(Run&& run, const std::vector<T>& in, const course::DeviceBuffer<T>& d_in,
                    std::size_t k, const std::vector<T>& expected, bool indices,
                    bool zeros_equal = false, bool check_input = false) {
  course::test::GuardedBuffer<T> values(k);
  course::test::GuardedBuffer<std::size_t> index(k);
  values.poison(0xFF);
  index.poison(0xFF);
  run(d_in.data(), values.data(), index.data());
  const std::vector<T> got = values.download();
  const std::vector<std::size_t> got_indices = index.download();
  if (!values.guards_intact() || !index.guards_intact()) return "wrote outside its output";
  if (check_input && lesson06::keys_of(d_in.download()) != lesson06::keys_of(in)) {
    return "changed its input";
  }
  return lesson06::top_k_mismatch(got, indices ? &got_indices : nullptr, expected, in, zeros_equal);
}

// Every version within its limits, and both libraries, on `in` for each k.
template <typename T>
void check_every_version(const std::vector<T>& in, const std::string& what,
                         const std::vector<std::size_t>& ks, const lesson06::Launch& launch = {}) {
  const std::size_t n = in.size();
  const course::DeviceBuffer<T> d_in(in);
  lesson06::CubTopK<T> cub(n);
  course::DeviceBuffer<T> data(n);
  course::DeviceBuffer<std::size_t> order(n);
  for (std::size_t k : ks) {
    const std::vector<T> expected = lesson06::reference_top_k(in, k);
    const std::vector<T> distinct = lesson06::reference_top_k_distinct(in, k);
    lesson06::Workspace<T> ws(n, k, launch);
    for (const lesson06::Version<T>& v : lesson06::versions<T>()) {
      if (!v.limit(n, k, launch).empty()) continue;
      INFO(v.name << " " << v.idea << ", " << what << ", n = " << n << ", k = " << k << ", "
                  << launch.threads << " threads, " << launch.blocks << " blocks");
      CHECK(checked([&](const T* a, T* values,
                        std::size_t* indices) { v.run(a, n, k, values, indices, ws); },
                    in, d_in, k, v.distinct ? distinct : expected, v.indices, false, k == n) == "");
    }
    const bool zeros_equal = std::is_same<T, float>::value;
    INFO("CUB and Thrust, " << what << ", n = " << n << ", k = " << k);
    CHECK(checked([&](const T* a, T* values, std::size_t* indices) { cub(a, k, values, indices); },
                  in, d_in, k, expected, true, zeros_equal) == "");
    CHECK(checked(
              [&](const T* a, T* values, std::size_t* indices) {
                CUDA_CHECK(cudaMemcpy(data.data(), a, n * sizeof(T), cudaMemcpyDeviceToDevice));
                CUDA_CHECK(cudaMemcpy(order.data(), cub.iota(), n * sizeof(std::size_t),
                                      cudaMemcpyDeviceToDevice));
                lesson06::thrust_top_k(data.data(), order.data(), n, k, values, indices);
              },
              in, d_in, k, expected, true, zeros_equal) == "");
  }
}

template <typename T>
void check_sizes() {
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{31}, std::size_t{32},
                        std::size_t{33}, std::size_t{255}, std::size_t{256}, std::size_t{257},
                        std::size_t{4097}, std::size_t{1000003}}) {
    for (Dist dist : kDists) {
      check_every_version(lesson06::make_input<T>(n, dist, course::test::seed() + n),
                          lesson06::dists().name(dist), ks_for(n));
    }
  }
}

}  // namespace

TEST_CASE("every version finds the top k of ints, at the contract's sizes", "[gpu]") {
  check_sizes<std::int32_t>();
}

TEST_CASE("every version finds the top k of floats, at the contract's sizes", "[gpu]") {
  check_sizes<float>();
}

TEST_CASE("v0 to v2 at their limits, and with other grids", "[gpu]") {
  const auto in = lesson06::make_input<std::int32_t>(300007, Dist::dups, course::test::seed());
  const auto floats = lesson06::make_input<float>(300007, Dist::source, course::test::seed());
  const std::size_t most_v2 = course::max_shared_bytes() / (32 * sizeof(Key));
  for (int threads : {32, 64, 128, 256, 1024}) {
    const std::size_t most_static = lesson06::kStaticListKeys / threads;
    for (int blocks : {0, 1, 7, 132}) {
      // 0: each version's own grid; v0's is one thread per value, whose second launch merges
      // n / threads lists in one block: too slow for a test at 32 threads and k = 384.
      if (blocks == 0 && threads < 256) continue;
      const lesson06::Launch launch{nullptr, threads, blocks};
      std::vector<std::size_t> ks = {1, most_static};
      if (threads == 32) ks.push_back(most_v2);  // v2 only: past the static wall
      check_every_version(in, "dups", ks, launch);
      check_every_version(floats, "source", {most_static}, launch);
    }
  }
}

TEST_CASE("radix select at ties on the threshold, at k = n, and on every digit", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  const std::size_t n = 200003;
  // Keys that differ only in the last digit, the middle one, or the top one; and all equal.
  for (const Key spread : {Key{0x3FF}, Key{0x3FFC00}, Key{0xFFE00000}, Key{0}}) {
    std::vector<std::int32_t> in(n);
    for (std::size_t i = 0; i < n; ++i) {
      const Key key = 0x9ABCDEF0u ^ (static_cast<Key>(course::random_u64(seed, i)) & spread);
      in[i] = course::from_order_key<std::int32_t>(key);
    }
    check_every_version(in, course::format("spread 0x%08x", spread),
                        {1, 2, 1000, 4096, 4097, n / 2, n - 1, n});
  }
}

TEST_CASE("v3's survivors sorted by rank (k <= 4096) and by CUB (any k)", "[gpu]") {
  const auto in = lesson06::make_input<float>(1000003, Dist::dups, course::test::seed());
  const course::DeviceBuffer<float> d_in(in);
  for (std::size_t k : {std::size_t{1}, std::size_t{31}, std::size_t{33}, std::size_t{777},
                        lesson06::kRankSortMaxK, lesson06::kRankSortMaxK + 1, std::size_t{20000}}) {
    const std::vector<float> expected = lesson06::reference_top_k(in, k);
    lesson06::Workspace<float> ws(in.size(), k, {});
    for (auto how : {lesson06::SurvivorSort::automatic, lesson06::SurvivorSort::cub}) {
      INFO("k = " << k << (how == lesson06::SurvivorSort::cub ? ", by CUB" : ""));
      CHECK(checked(
                [&](const float* a, float* values, std::size_t* indices) {
                  lesson06::top_k_radix_select(a, in.size(), k, values, indices, ws, how);
                },
                in, d_in, k, expected, true) == "");
    }
  }
}

TEST_CASE("v5 selects from what its filter kept, and falls back when the sample misjudged",
          "[gpu]") {
  const std::size_t n = 1000003;
  const std::uint64_t seed = course::test::seed();
  // Sampled places hold 1000 + i and every other value is 0: the threshold is above every
  // value not sampled, so it keeps `rank` values, fewer than k = 100.
  std::vector<std::int32_t> trap(n, 0);
  for (unsigned i = 0; i < lesson06::kSamples; ++i)
    trap[lesson06::sample_place(i, n)] = 1000 + static_cast<std::int32_t>(i);
  struct Case {
    const char* what;
    std::vector<std::int32_t> in;
    bool falls_back;
  };
  const Case cases[] = {
      {"source", lesson06::make_input<std::int32_t>(n, Dist::source, seed), false},
      {"ascending", lesson06::make_input<std::int32_t>(n, Dist::ascending, seed), false},
      {"equal (every value kept: past the list's room)",
       lesson06::make_input<std::int32_t>(n, Dist::equal, seed), true},
      {"samples above the rest (fewer than k kept)", trap, true}};
  for (const Case& c : cases) {
    const course::DeviceBuffer<std::int32_t> d_in(c.in);
    for (std::size_t k : {std::size_t{100}, std::size_t{5000}, std::size_t{20000}}) {
      const lesson06::FilterPlan plan = lesson06::filter_plan(n, k);
      REQUIRE(plan.rank != 0);
      lesson06::Workspace<std::int32_t> ws(n, k, {});
      INFO(c.what << ", k = " << k);
      CHECK(checked([&](const std::int32_t* a, std::int32_t* values,
                        std::size_t* indices) { lesson06::top_k_v5(a, n, k, values, indices, ws); },
                    c.in, d_in, k, lesson06::reference_top_k(c.in, k), true) == "");
      const lesson06::FilterReport report = lesson06::filter_report(ws.select);
      CHECK(report.fell_back == c.falls_back);
      if (!c.falls_back) {
        CHECK(report.kept >= k);
        CHECK(report.kept <= plan.most_kept);
      }
    }
  }
}

TEST_CASE("v5's winners sorted by rank, in chunks and by CUB", "[gpu]") {
  const std::size_t n = 1000003;
  for (Dist dist : {Dist::dups, Dist::source, Dist::descending}) {
    const auto in = lesson06::make_input<float>(n, dist, course::test::seed());
    const course::DeviceBuffer<float> d_in(in);
    for (std::size_t k :
         {lesson06::kRankSortMaxK, lesson06::kRankSortMaxK + 1,
          lesson06::kRankSortMaxK + lesson06::kChunk + 1, std::size_t{16384},
          lesson06::kChunkSortMaxK, lesson06::kChunkSortMaxK + 1,
          lesson06::chunk_sort_most<float>(), lesson06::chunk_sort_most<float>() + 1}) {
      lesson06::Workspace<float> ws(n, k, {});
      INFO(lesson06::dists().name(dist) << ", k = " << k);
      CHECK(checked([&](const float* a, float* values,
                        std::size_t* indices) { lesson06::top_k_v5(a, n, k, values, indices, ws); },
                    in, d_in, k, lesson06::reference_top_k(in, k), true) == "");
    }
  }
}

TEST_CASE("repeated runs give the same, right, result", "[gpu]") {
  for (Dist dist : {Dist::source, Dist::dups, Dist::equal}) {
    const auto in = lesson06::make_input<std::int32_t>(1000003, dist, course::test::seed());
    const course::DeviceBuffer<std::int32_t> d_in(in);
    for (std::size_t k : {std::size_t{10}, std::size_t{32}, std::size_t{5000}}) {
      const std::vector<std::int32_t> expected = lesson06::reference_top_k(in, k);
      lesson06::Workspace<std::int32_t> ws(in.size(), k, {});
      for (const auto& v : lesson06::versions<std::int32_t>()) {
        if (!v.indices || !v.limit(in.size(), k, {}).empty()) continue;
        for (int run = 0; run < 10; ++run) {
          INFO(v.name << ", " << lesson06::dists().name(dist) << ", k = " << k << ", run " << run);
          CHECK(checked([&](const std::int32_t* a, std::int32_t* values,
                            std::size_t* indices) { v.run(a, in.size(), k, values, indices, ws); },
                        in, d_in, k, expected, true) == "");
        }
      }
    }
  }
}

TEST_CASE("the versions reject what they cannot take", "[gpu]") {
  course::DeviceBuffer<std::int32_t> a(100);
  course::DeviceBuffer<std::int32_t> b(100);
  course::DeviceBuffer<std::size_t> c(100);
  lesson06::Workspace<std::int32_t> ws(100, 49, {});
  CHECK_THROWS(lesson06::top_k_v0(a.data(), 100, 49, b.data(), c.data(), ws));  // 256 x 49 keys
  CHECK_THROWS(lesson06::top_k_v1(a.data(), 100, 49, b.data(), c.data(), ws));
  CHECK_THROWS(lesson06::top_k_v4(a.data(), 100, 33, b.data(), c.data(), ws));
  CHECK_THROWS(lesson06::top_k_v3(a.data(), 100, 101, b.data(), c.data(), ws));
  ws.launch.threads = 100;
  CHECK_THROWS(lesson06::top_k_v2(a.data(), 100, 10, b.data(), c.data(), ws));
}

// ---- past 2^31 elements -------------------------------------------------------------------------

namespace {

__global__ void generate_kernel(std::int32_t* out, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    out[i] = lesson06::element<std::int32_t>(seed, i, n, Dist::source);
  }
}

// Counts the input's values above `threshold`; and, for each result j, whether in[index[j]] is
// values[j] (a wrong one adds to *mismatches).
__global__ void verify_kernel(const std::int32_t* in, std::size_t n, std::int32_t threshold,
                              const std::int32_t* values, const std::size_t* indices, std::size_t k,
                              unsigned long long* above, unsigned long long* mismatches) {
  const std::size_t first = course::first_index();
  unsigned long long count = 0;
  for (std::size_t i = first; i < n; i += course::grid_stride())
    count += in[i] > threshold;
  atomicAdd(above, count);
  for (std::size_t j = first; j < k; j += course::grid_stride()) {
    if (indices[j] >= n || in[indices[j]] != values[j]) atomicAdd(mismatches, 1ull);
  }
}

// "" when values (descending) and indices are a right top-k of the n values at d_in.
std::string verify_on_gpu(const std::int32_t* d_in, std::size_t n, std::size_t k,
                          const std::int32_t* d_values, const std::size_t* d_indices) {
  std::vector<std::int32_t> values(k);
  std::vector<std::size_t> indices(k);
  CUDA_CHECK(cudaMemcpy(values.data(), d_values, k * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
  CUDA_CHECK(
      cudaMemcpy(indices.data(), d_indices, k * sizeof(std::size_t), cudaMemcpyDeviceToHost));
  if (!std::is_sorted(values.rbegin(), values.rend())) return "not in descending order";
  std::vector<std::size_t> sorted = indices;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return "an index twice";
  course::DeviceBuffer<unsigned long long> counts(2);
  counts.fill_bytes(0);
  verify_kernel<<<1024, 256>>>(d_in, n, values[k - 1], d_values, d_indices, k, counts.data(),
                               counts.data() + 1);
  CUDA_CHECK_LAUNCH();
  const std::vector<unsigned long long> got = counts.download();
  if (got[1] != 0) return course::format("%llu indices do not point at their value", got[1]);
  // Every value above the k-th largest must be among the results, and nothing else is.
  const auto above = static_cast<unsigned long long>(std::count_if(
      values.begin(), values.end(), [&](std::int32_t x) { return x > values[k - 1]; }));
  if (got[0] != above) {
    return course::format("%llu values of the input are above the last result, %llu results are",
                          got[0], above);
  }
  return "";
}

}  // namespace

TEST_CASE("v3 and v4 find the top k of more than 2^31 ints", "[gpu][large]") {
  const std::size_t n = (std::size_t{1} << 31) + 3;
  course::DeviceBuffer<std::int32_t> in(n);
  generate_kernel<<<1024, 256>>>(in.data(), n, course::test::seed());
  CUDA_CHECK_LAUNCH();
  for (std::size_t k : {std::size_t{32}, std::size_t{1000}}) {
    lesson06::Workspace<std::int32_t> ws(n, k, {});
    course::DeviceBuffer<std::int32_t> values(k);
    course::DeviceBuffer<std::size_t> indices(k);
    for (const auto& v : lesson06::versions<std::int32_t>()) {
      if (!v.indices || !v.limit(n, k, {}).empty()) continue;
      INFO(v.name << ", k = " << k);
      values.fill_bytes(0xFF);
      indices.fill_bytes(0xFF);
      v.run(in.data(), n, k, values.data(), indices.data(), ws);
      CHECK(verify_on_gpu(in.data(), n, k, values.data(), indices.data()) == "");
    }
  }
}
