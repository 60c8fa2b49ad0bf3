// Lesson 05's tests. On the CPU: totalOrder against the IEEE ordering of hand-picked floats, the
// reference against a sort of the keys, the source's host sort against the reference (and n - 1
// phases against a case they cannot sort), the source's comparison against NaNs and signed zeros,
// the check against results broken on purpose. On the GPU: every version, Thrust and CUB against
// the reference, bit for bit, on every input at the contract's sizes (each version up to its
// limit), into poisoned output with guard zones; repeated runs; past 2^31 elements, checked on
// the GPU; v9's stable sort of (float, index) pairs against std::stable_sort.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "kernels.cuh"
#include "reference.hpp"
#include "sort_check.cuh"
#include "testing.hpp"

namespace {

using lesson05::Dist;
using lesson05::test::bits_of;
using lesson05::test::sorted_by;

const std::vector<std::size_t> kSizes = {1, 2, 31, 32, 33, 255, 256, 257, 4097, 1000003};
const Dist kDists[] = {Dist::perm, Dist::uniform, Dist::sorted, Dist::reversed,
                       Dist::dups, Dist::zeros,   Dist::special};

// An independent reference: sort the keys as integers, and turn them back into floats.
std::vector<float> sort_by_keys(const std::vector<float>& values) {
  std::vector<std::uint32_t> keys(values.size());
  std::transform(values.begin(), values.end(), keys.begin(),
                 [](float x) { return course::order_key(x); });
  std::sort(keys.begin(), keys.end());
  std::vector<float> out(values.size());
  std::transform(keys.begin(), keys.end(), out.begin(), course::from_order_key<float>);
  return out;
}

}  // namespace

// ---- CPU ----------------------------------------------------------------------------------------

TEST_CASE("totalOrder puts hand-picked floats in IEEE 754's order", "[cpu]") {
  const float inf = std::numeric_limits<float>::infinity();
  const float ordered[] = {course::from_bits<float>(0xFFFFFFFFu),  // -NaN, largest payload
                           course::from_bits<float>(0xFFC00000u),  // -NaN
                           -inf,
                           -std::numeric_limits<float>::max(),
                           -1.0f,
                           -std::numeric_limits<float>::min(),
                           -std::numeric_limits<float>::denorm_min(),
                           -0.0f,
                           0.0f,
                           std::numeric_limits<float>::denorm_min(),
                           std::numeric_limits<float>::min(),
                           1.0f,
                           std::numeric_limits<float>::max(),
                           inf,
                           course::from_bits<float>(0x7FC00000u),  // +NaN
                           lesson05::last_float()};
  const std::size_t count = sizeof ordered / sizeof ordered[0];
  for (std::size_t i = 0; i < count; ++i) {
    for (std::size_t j = 0; j < count; ++j) {
      INFO(i << " against " << j);
      CHECK(lesson05::TotalOrder{}(ordered[i], ordered[j]) == (i < j));
    }
  }
  CHECK(course::order_key(lesson05::last_float()) == 0xFFFFFFFFu);
}

TEST_CASE("the reference sorts every input as a sort of the keys does", "[cpu]") {
  for (Dist dist : kDists) {
    for (std::size_t n :
         {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{1000}, std::size_t{100003}}) {
      CAPTURE(lesson05::dists().name(dist), n);
      const std::vector<float> in = lesson05::make_input(n, dist, course::test::seed());
      const std::vector<float> sorted = lesson05::reference_sort(in);
      REQUIRE(bits_of(sorted) == bits_of(sort_by_keys(in)));
      // The same multiset of bits, in order.
      std::vector<std::uint32_t> a = bits_of(in);
      std::vector<std::uint32_t> b = bits_of(sorted);
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      REQUIRE(a == b);
      REQUIRE(std::is_sorted(sorted.begin(), sorted.end(), lesson05::TotalOrder{}));
    }
  }
}

TEST_CASE("the inputs hold what they promise", "[cpu]") {
  const std::uint64_t seed = course::test::seed();
  const std::size_t n = 100000;
  std::vector<float> perm = lesson05::make_input(n, Dist::perm, seed);
  CHECK(perm != lesson05::reference_sort(perm));  // shuffled
  CHECK(lesson05::source_check(lesson05::reference_sort(perm).data(), n));
  const std::vector<float> sorted = lesson05::make_input(n, Dist::sorted, seed);
  CHECK(std::is_sorted(sorted.begin(), sorted.end()));
  const std::vector<float> reversed = lesson05::make_input(n, Dist::reversed, seed);
  CHECK(std::is_sorted(reversed.rbegin(), reversed.rend()));
  const std::vector<float> dups = lesson05::make_input(n, Dist::dups, seed);
  std::vector<std::uint32_t> distinct = bits_of(dups);
  std::sort(distinct.begin(), distinct.end());
  CHECK(std::unique(distinct.begin(), distinct.end()) - distinct.begin() == 16);
  const std::vector<float> zeros = lesson05::make_input(n, Dist::zeros, seed);
  CHECK(std::count_if(zeros.begin(), zeros.end(),
                      [](float x) { return x == 0 && std::signbit(x); }) > n / 4);
  CHECK(std::count_if(zeros.begin(), zeros.end(),
                      [](float x) { return x == 0 && !std::signbit(x); }) > n / 4);
  const std::vector<float> special = lesson05::make_input(n, Dist::special, seed);
  auto some = [&](auto&& is) { return std::any_of(special.begin(), special.end(), is); };
  CHECK(some([](float x) { return std::isnan(x) && std::signbit(x); }));
  CHECK(some([](float x) { return std::isnan(x) && !std::signbit(x); }));
  CHECK(some([](float x) { return std::isinf(x) && x < 0; }));
  CHECK(some([](float x) { return std::isinf(x) && x > 0; }));
  CHECK(some([](float x) { return std::fpclassify(x) == FP_SUBNORMAL; }));
  CHECK(lesson05::make_input(1000, Dist::uniform, seed) ==
        lesson05::make_input(1000, Dist::uniform, seed));
  CHECK(lesson05::make_input(1000, Dist::uniform, seed) !=
        lesson05::make_input(1000, Dist::uniform, seed + 1));
  REQUIRE_THROWS(lesson05::dists().parse("gaussian"));
}

TEST_CASE("the source's host sort (n/2 + 1 rounds) matches the reference, n - 1 phases do not",
          "[cpu]") {
  // The source's `loop <= N/2`: n/2 + 1 rounds of two phases, at least n phases for odd n too.
  CHECK(lesson05::source_phases(1024) == 1026);
  CHECK(lesson05::source_phases(3) == 4);
  CHECK(lesson05::source_phases(1025) == 1026);
  for (Dist dist : kDists) {
    for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{255},
                          std::size_t{1024}, std::size_t{3001}}) {
      CAPTURE(lesson05::dists().name(dist), n);
      std::vector<float> a = lesson05::make_input(n, dist, course::test::seed());
      const std::vector<float> expected = lesson05::reference_sort(a);
      lesson05::odd_even_sort(a.data(), n);
      REQUIRE(lesson05::sort_mismatch(a.data(), expected) == "");
    }
  }
  // Reversed input needs every one of the n phases: the smallest element must travel n - 1
  // places, one per phase, and it cannot move in the first phase when n is odd.
  for (std::size_t n : {std::size_t{3}, std::size_t{5}, std::size_t{1025}}) {
    std::vector<float> a = lesson05::make_input(n, Dist::reversed, course::test::seed());
    const std::vector<float> expected = lesson05::reference_sort(a);
    lesson05::odd_even_sort(a.data(), n, lesson05::TotalOrder{}, n - 1);
    CHECK(lesson05::sort_mismatch(a.data(), expected) != "");
    // The source's prose, "N/2 rounds", rounded down: the same n - 1 phases for odd n.
    std::vector<float> b = lesson05::make_input(n, Dist::reversed, course::test::seed());
    lesson05::odd_even_sort(b.data(), n, lesson05::TotalOrder{}, 2 * (n / 2));
    CHECK(lesson05::sort_mismatch(b.data(), expected) != "");
  }
}

TEST_CASE("the source's a < b cannot sort NaNs and cannot tell -0.0 from +0.0", "[cpu]") {
  const std::size_t n = 1024;
  std::vector<float> special = lesson05::make_input(n, Dist::special, course::test::seed());
  const std::vector<float> special_sorted = lesson05::reference_sort(special);
  lesson05::odd_even_sort(special.data(), n, lesson05::SourceLess{});
  CHECK(lesson05::sort_mismatch(special.data(), special_sorted, true) != "");
  std::vector<float> zeros = lesson05::make_input(n, Dist::zeros, course::test::seed());
  const std::vector<float> zeros_sorted = lesson05::reference_sort(zeros);
  lesson05::odd_even_sort(zeros.data(), n, lesson05::SourceLess{});
  CHECK(lesson05::sort_mismatch(zeros.data(), zeros_sorted, true) == "");
  CHECK(lesson05::sort_mismatch(zeros.data(), zeros_sorted, false) != "");
}

TEST_CASE("the check catches a swapped pair, a lost element, and signed zeros", "[cpu]") {
  const std::vector<float> expected =
      lesson05::reference_sort(lesson05::make_input(1000, Dist::uniform, course::test::seed()));
  std::vector<float> got = expected;
  CHECK(lesson05::sort_mismatch(got.data(), expected) == "");
  std::swap(got[10], got[11]);
  CHECK(lesson05::sort_mismatch(got.data(), expected) != "");
  got = expected;
  got[999] = got[998];
  CHECK(lesson05::sort_mismatch(got.data(), expected) != "");
  const std::vector<float> zeros = {-0.0f, 0.0f};
  const std::vector<float> swapped = {0.0f, -0.0f};
  CHECK(lesson05::sort_mismatch(swapped.data(), zeros) != "");
  CHECK(lesson05::sort_mismatch(swapped.data(), zeros, true) == "");
}

// ---- GPU ----------------------------------------------------------------------------------------

namespace {

void check_every_version(const std::vector<float>& in, const std::string& what,
                         const lesson05::Launch& launch) {
  const std::vector<float> expected = lesson05::reference_sort(in);
  const std::size_t n = in.size();
  for (const lesson05::Version& v : lesson05::versions()) {
    if (!v.limit(n, launch).empty()) continue;
    INFO(v.name << " " << v.idea << ", " << what << ", n = " << n << ", threads "
                << launch.threads);
    CHECK(sorted_by([&](const float* a, float* b, std::size_t m) { v.run(a, b, m, launch); }, in,
                    expected) == "");
  }
  if (n <= lesson05::kLibraryMaxN) {
    INFO("Thrust and CUB, " << what << ", n = " << n);
    CHECK(sorted_by(
              [&](const float* a, float* b, std::size_t m) {
                CUDA_CHECK(cudaMemcpy(b, a, m * sizeof(float), cudaMemcpyDeviceToDevice));
                lesson05::thrust_sort(b, m);
              },
              in, expected, true) == "");
    lesson05::CubSort cub(n);
    CHECK(sorted_by([&](const float* a, float* b, std::size_t) { cub(a, b); }, in, expected,
                    true) == "");
  }
}

// The ends of the order at both ends of the input, and the last float among the values, which is
// also v3's padding.
std::vector<float> extremes(std::size_t n) {
  std::vector<float> in = lesson05::make_input(n, Dist::uniform, course::test::seed());
  const float picks[] = {lesson05::last_float(), course::from_bits<float>(0xFFFFFFFFu),
                         std::numeric_limits<float>::infinity(),
                         -std::numeric_limits<float>::infinity()};
  for (std::size_t i = 0; i < n; i += 7)
    in[i] = picks[(i / 7) % 4];
  in[n - 1] = lesson05::last_float();
  return in;
}

}  // namespace

TEST_CASE("every version sorts every input, at the contract's sizes", "[gpu]") {
  const lesson05::Launch launch{};
  for (std::size_t n : kSizes) {
    for (Dist dist : kDists)
      check_every_version(lesson05::make_input(n, dist, course::test::seed()),
                          lesson05::dists().name(dist), launch);
    check_every_version(extremes(n), "extremes", launch);
  }
}

TEST_CASE("the multi-block versions at whole segments, and at other block sizes", "[gpu]") {
  for (int threads : {32, 128, 512, 1024}) {
    const lesson05::Launch launch{nullptr, threads};
    const std::size_t segment = 2 * static_cast<std::size_t>(threads);
    for (std::size_t n : {segment, 2 * segment, 3 * segment, 37 * segment, 37 * segment + 1}) {
      for (Dist dist : {Dist::reversed, Dist::special, Dist::dups})
        check_every_version(lesson05::make_input(n, dist, course::test::seed()),
                            lesson05::dists().name(dist), launch);
    }
  }
}

TEST_CASE("the bitonic versions at one chunk and around it, and at a large size", "[gpu]") {
  const lesson05::Launch launch{};
  for (std::size_t n : {std::size_t{lesson05::kChunk - 1}, std::size_t{lesson05::kChunk},
                        std::size_t{lesson05::kChunk + 1}, std::size_t{2 * lesson05::kChunk},
                        std::size_t{16 * lesson05::kChunk + 5}, (std::size_t{1} << 24) + 3}) {
    for (Dist dist : {Dist::uniform, Dist::reversed, Dist::special})
      check_every_version(lesson05::make_input(n, dist, course::test::seed()),
                          lesson05::dists().name(dist), launch);
  }
}

TEST_CASE("v9 at its chunk and merge-block edges, with and without the program's scratch",
          "[gpu]") {
  const std::size_t chunk = lesson05::chunk_of<lesson05::FloatKeys>();
  const std::size_t tile = lesson05::kMergeTile;
  const lesson05::Version& v9 = lesson05::versions().back();
  REQUIRE(std::string(v9.name) == "v9");
  for (std::size_t n :
       {tile - 1, tile + 1, chunk - 1, chunk + 1, 2 * chunk, 2 * chunk + 1, 3 * chunk + tile - 1,
        5 * chunk + tile, 8 * chunk, 8 * chunk + 1, (std::size_t{1} << 20) + 7}) {
    course::DeviceBuffer<unsigned char> scratch(lesson05::v9_scratch_bytes(n));
    for (const lesson05::Launch& launch :
         {lesson05::Launch{},
          lesson05::Launch{nullptr, lesson05::kSourceThreads, scratch.data(), scratch.size()}}) {
      for (Dist dist : kDists) {
        const std::vector<float> in = lesson05::make_input(n, dist, course::test::seed());
        INFO("v9, " << lesson05::dists().name(dist) << ", n = " << n << ", scratch "
                    << launch.scratch_bytes);
        CHECK(sorted_by([&](const float* a, float* b, std::size_t m) { v9.run(a, b, m, launch); },
                        in, lesson05::reference_sort(in)) == "");
      }
    }
  }
}

namespace {

// What a stable sort gives: the places 0..n-1 in the order of their floats in totalOrder, equal
// floats in the order of their places.
std::vector<std::uint32_t> stable_order(const std::vector<float>& in) {
  std::vector<std::uint32_t> index(in.size());
  std::iota(index.begin(), index.end(), 0u);
  std::stable_sort(index.begin(), index.end(), [&](std::uint32_t a, std::uint32_t b) {
    return lesson05::TotalOrder{}(in[a], in[b]);
  });
  return index;
}

}  // namespace

TEST_CASE("v9 sorts (float, index) pairs stably", "[gpu]") {
  const std::size_t chunk = lesson05::chunk_of<lesson05::IndexedKeys>();
  for (std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{4097}, chunk + 1,
                        3 * chunk + lesson05::kMergeTile + 5, std::size_t{1000003}}) {
    for (Dist dist : {Dist::dups, Dist::zeros, Dist::special, Dist::sorted, Dist::reversed}) {
      const std::vector<float> in = lesson05::make_input(n, dist, course::test::seed());
      const course::DeviceBuffer<float> d_in(in);
      course::DeviceBuffer<float> keys(n);
      course::DeviceBuffer<std::uint32_t> index(n);
      keys.fill_bytes(0xFF);
      index.fill_bytes(0xFF);
      lesson05::stable_sort_pairs_v9(d_in.data(), keys.data(), index.data(), n);
      INFO(lesson05::dists().name(dist) << ", n = " << n);
      const std::vector<std::uint32_t> expected = stable_order(in);
      const std::vector<std::uint32_t> got = index.download();
      // The first place where the indices differ, if any: a swap of two equal floats shows here
      // and nowhere in the floats.
      const auto differ = std::mismatch(got.begin(), got.end(), expected.begin());
      CHECK(differ.first == got.end());
      const std::vector<float> sorted = keys.download();
      CHECK(lesson05::sort_mismatch(sorted.data(), lesson05::reference_sort(in)) == "");
    }
  }
  // Enough equal floats that a merge which let the right run win a tie would show it.
  std::vector<float> ties(5 * chunk + 77);
  for (std::size_t i = 0; i < ties.size(); ++i)
    ties[i] = static_cast<float>(i % 3);
  const course::DeviceBuffer<float> d_ties(ties);
  course::DeviceBuffer<float> keys(ties.size());
  course::DeviceBuffer<std::uint32_t> index(ties.size());
  lesson05::stable_sort_pairs_v9(d_ties.data(), keys.data(), index.data(), ties.size());
  CHECK(index.download() == stable_order(ties));
}

TEST_CASE("repeated runs give the same, right, result", "[gpu]") {
  const lesson05::Launch launch{};
  for (std::size_t n : {std::size_t{4097}, std::size_t{100003}}) {
    const std::vector<float> in = lesson05::make_input(n, Dist::special, course::test::seed());
    const std::vector<float> expected = lesson05::reference_sort(in);
    for (const lesson05::Version& v : lesson05::versions()) {
      if (!v.limit(n, launch).empty()) continue;
      for (int run = 0; run < 5; ++run) {
        INFO(v.name << ", run " << run << ", n = " << n);
        CHECK(sorted_by([&](const float* a, float* b, std::size_t m) { v.run(a, b, m, launch); },
                        in, expected) == "");
      }
    }
  }
}

TEST_CASE("v0 with the source's a < b fails on NaNs and on signed zeros, and CUB merges the zeros",
          "[gpu]") {
  const std::size_t n = lesson05::kSourceN;
  const lesson05::Launch launch{};
  const auto source_v0 = [&](const float* a, float* b, std::size_t m) {
    lesson05::odd_even_shared(a, b, m, launch, lesson05::SourceLess{});
  };
  const std::vector<float> special = lesson05::make_input(n, Dist::special, course::test::seed());
  CHECK(sorted_by(source_v0, special, lesson05::reference_sort(special), true) != "");
  const std::vector<float> zeros = lesson05::make_input(n, Dist::zeros, course::test::seed());
  const std::vector<float> expected = lesson05::reference_sort(zeros);
  CHECK(sorted_by(source_v0, zeros, expected, true) == "");
  CHECK(sorted_by(source_v0, zeros, expected, false) != "");
  lesson05::CubSort cub(n);
  const auto cub_sort = [&](const float* a, float* b, std::size_t) { cub(a, b); };
  CHECK(sorted_by(cub_sort, zeros, expected, true) == "");
  CHECK(sorted_by(cub_sort, zeros, expected, false) != "");
}

TEST_CASE("the versions reject the n they cannot take", "[gpu]") {
  const lesson05::Launch launch{};
  course::DeviceBuffer<float> a(1);
  course::DeviceBuffer<float> b(1);
  const std::size_t too_many_for_shared = course::max_shared_bytes() / sizeof(float) + 1;
  CHECK_THROWS(lesson05::sort_v0(a.data(), b.data(), too_many_for_shared, launch));
  CHECK_THROWS(lesson05::sort_v2(a.data(), b.data(), 1025, launch));
  CHECK_THROWS(lesson05::sort_v4(a.data(), b.data(), lesson05::kChunk + 1, launch));
  CHECK_THROWS(lesson05::sort_v1(a.data(), b.data(), 2, lesson05::Launch{nullptr, 100}));
}

// ---- past 2^31 elements -------------------------------------------------------------------------

namespace {

__global__ void generate_kernel(float* out, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    out[i] = lesson05::element(seed, i, n, Dist::special);
  }
}

// Counts the places i where data[i + 1] comes before data[i], and adds up a hash of every value
// (the same for any order of the same values, so a lost or doubled value changes it).
__global__ void order_and_hash_kernel(const float* data, std::size_t n,
                                      unsigned long long* out_of_order, unsigned long long* hash) {
  unsigned long long wrong = 0;
  unsigned long long sum = 0;
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    sum += course::mix64(course::bits_of<float>(data[i]) + 0x9E3779B97F4A7C15ull);
    if (i + 1 < n && lesson05::TotalOrder{}(data[i + 1], data[i])) ++wrong;
  }
  atomicAdd(out_of_order, wrong);
  atomicAdd(hash, sum);
}

std::pair<unsigned long long, unsigned long long> order_and_hash(const float* data, std::size_t n) {
  course::DeviceBuffer<unsigned long long> counts(2);
  counts.fill_bytes(0);
  order_and_hash_kernel<<<1024, 256>>>(data, n, counts.data(), counts.data() + 1);
  CUDA_CHECK_LAUNCH();
  const std::vector<unsigned long long> got = counts.download();
  return {got[0], got[1]};
}

}  // namespace

TEST_CASE("v8 and v9 sort more than 2^31 floats", "[gpu][large]") {
  const std::size_t n = (std::size_t{1} << 31) + 3;
  course::DeviceBuffer<float> in(n);
  course::DeviceBuffer<float> out(n);
  generate_kernel<<<1024, 256>>>(in.data(), n, course::test::seed());
  CUDA_CHECK_LAUNCH();
  const auto before = order_and_hash(in.data(), n);
  REQUIRE(before.first > 0);  // the input is not sorted already
  for (lesson05::Run sort : {lesson05::sort_v8, lesson05::sort_v9}) {
    out.fill_bytes(0xFF);
    sort(in.data(), out.data(), n, {});
    const auto after = order_and_hash(out.data(), n);
    CHECK(after.first == 0);
    CHECK(after.second == before.second);
  }
}
