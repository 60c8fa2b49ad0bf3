// Lesson 01's tests. On the CPU: the reference histograms against an independent oracle, and the
// inputs. On the GPU: every version and CUB against the reference, on the contract's sizes, the
// three inputs, misaligned pointers, odd grid sizes, repeated runs and, given the memory, more
// than 2^32 bytes of one value.
#include <algorithm>
#include <string>
#include <vector>

#include "kernels.cuh"
#include "reference.hpp"
#include "testing.hpp"

namespace {

using lesson01::Histogram;
using lesson01::kBins;

const std::vector<std::size_t> kSizes = {1, 2, 31, 32, 33, 255, 256, 257, 4097, 1000003};

// The oracle: count each of the 256 values on its own, with std::count.
Histogram count_each_value(const std::vector<std::uint8_t>& data) {
  Histogram h{};
  for (int v = 0; v < kBins; ++v) {
    h[v] = static_cast<std::uint64_t>(std::count(data.begin(), data.end(), v));
  }
  return h;
}

// Runs one version on device bytes, into a poisoned output with guard zones, and returns the
// counts. Fails the test if the version wrote outside its 256 bins.
Histogram run_version(const lesson01::Version& v, const std::uint8_t* d_data, std::size_t n,
                      lesson01::Launch launch = {}) {
  Histogram h{};
  if (v.narrow != nullptr) {
    course::test::GuardedBuffer<unsigned int> bins(kBins);
    bins.poison(0xFF);
    v.narrow(d_data, n, bins.data(), launch);
    const std::vector<unsigned int> counts = bins.download();
    REQUIRE(bins.guards_intact());
    std::copy(counts.begin(), counts.end(), h.begin());
  } else {
    course::test::GuardedBuffer<unsigned long long> bins(kBins);
    bins.poison(0xFF);
    v.wide(d_data, n, bins.data(), launch);
    const std::vector<unsigned long long> counts = bins.download();
    REQUIRE(bins.guards_intact());
    std::copy(counts.begin(), counts.end(), h.begin());
  }
  return h;
}

// CUB with the counter type given, into a poisoned output with guard zones.
template <typename Counter>
Histogram run_cub(const std::uint8_t* d_data, std::size_t n) {
  course::test::GuardedBuffer<Counter> bins(kBins);
  bins.poison(0xFF);
  lesson01::CubHistogram<Counter> cub(n);
  cub(d_data, bins.data());
  const std::vector<Counter> counts = bins.download();
  REQUIRE(bins.guards_intact());
  Histogram h{};
  std::copy(counts.begin(), counts.end(), h.begin());
  return h;
}

}  // namespace

// ---- the CPU ------------------------------------------------------------------------------------

TEST_CASE("the CPU histograms agree with counting each value on its own", "[cpu]") {
  const lesson01::Dist dist = GENERATE(from_range(lesson01::dists().all()));
  const std::size_t n = GENERATE(as<std::size_t>{}, 0, 1, 2, 3, 5, 31, 33, 255, 257, 4097, 100003);
  CAPTURE(lesson01::dists().name(dist), n);
  const std::vector<std::uint8_t> data = lesson01::make_input(n, dist, course::test::seed());
  const Histogram expected = count_each_value(data);
  CHECK(lesson01::histogram_cpu_loop(data.data(), n) == expected);
  CHECK(lesson01::histogram_cpu_unrolled(data.data(), n) == expected);
  for (unsigned threads : {1u, 3u, 64u}) {  // 64 threads: more than some inputs have bytes
    CAPTURE(threads);
    CHECK(lesson01::histogram_cpu_threads(data.data(), n, threads) == expected);
  }
}

TEST_CASE("the inputs: same is one non-zero value, skewed follows Zipf, seeds matter", "[cpu]") {
  const std::uint64_t seed = course::test::seed();
  const std::size_t n = 1 << 20;
  CAPTURE(seed);

  const std::vector<std::uint8_t> same = lesson01::make_input(n, lesson01::Dist::same, seed);
  CHECK(lesson01::same_value(seed) != 0);
  CHECK(std::all_of(same.begin(), same.end(),
                    [&](std::uint8_t b) { return b == lesson01::same_value(seed); }));

  // Zipf over 256 ranks: the top value has probability 1 / H(256) = 0.1632, the second half of
  // that; the bottom one 1 / (256 H(256)), so every value appears in a million draws.
  Histogram skewed =
      lesson01::histogram_cpu_loop(lesson01::make_input(n, lesson01::Dist::skewed, seed).data(), n);
  std::sort(skewed.begin(), skewed.end(), std::greater<>());
  CHECK(static_cast<double>(skewed[0]) / n == course::test::Approx(0.1632).margin(0.003));
  CHECK(static_cast<double>(skewed[1]) / n == course::test::Approx(0.0816).margin(0.002));
  CHECK(skewed[kBins - 1] > 0);

  const Histogram uniform = lesson01::histogram_cpu_loop(
      lesson01::make_input(n, lesson01::Dist::uniform, seed).data(), n);
  CHECK(*std::min_element(uniform.begin(), uniform.end()) > n / 256 / 2);

  for (const lesson01::Dist dist : {lesson01::Dist::uniform, lesson01::Dist::skewed}) {
    CHECK(lesson01::make_input(1000, dist, seed) == lesson01::make_input(1000, dist, seed));
    CHECK(lesson01::make_input(1000, dist, seed) != lesson01::make_input(1000, dist, seed + 1));
  }
  REQUIRE_THROWS(lesson01::dists().parse("zipf"));
}

TEST_CASE("histogram_of_values counts values below num_bins and nothing else", "[cpu]") {
  const unsigned num_bins = GENERATE(1u, 7u, 256u, 4096u);
  const auto values =
      course::random_ints<std::uint16_t>(20000, course::test::seed(), 0, num_bins + 40);
  std::vector<std::uint64_t> expected(num_bins, 0);
  for (unsigned b = 0; b < num_bins; ++b) {
    expected[b] = static_cast<std::uint64_t>(std::count(values.begin(), values.end(), b));
  }
  CHECK(lesson01::histogram_of_values(values.data(), values.size(), num_bins) == expected);
}

// ---- the GPU ------------------------------------------------------------------------------------

TEST_CASE("every version counts every size exactly", "[gpu]") {
  const lesson01::Dist dist = GENERATE(from_range(lesson01::dists().all()));
  for (std::size_t n : kSizes) {
    const std::vector<std::uint8_t> data = lesson01::make_input(n, dist, course::test::seed() + n);
    const Histogram expected = lesson01::histogram_cpu_loop(data.data(), n);
    const course::DeviceBuffer<std::uint8_t> d_data(data);
    for (const lesson01::Version& v : lesson01::versions()) {
      INFO(v.name << " " << v.idea << ", " << lesson01::dists().name(dist) << ", n = " << n);
      CHECK(course::test::mismatch(run_version(v, d_data.data(), n), expected) == "");
    }
    INFO("CUB, " << lesson01::dists().name(dist) << ", n = " << n);
    CHECK(course::test::mismatch(run_cub<unsigned int>(d_data.data(), n), expected) == "");
    CHECK(course::test::mismatch(run_cub<unsigned long long>(d_data.data(), n), expected) == "");
  }
}

TEST_CASE("every version counts a large input exactly", "[gpu]") {
  const lesson01::Dist dist = GENERATE(from_range(lesson01::dists().all()));
  const std::size_t n = (std::size_t{1} << 26) + 5;  // 64 MiB, and not a multiple of 16
  const std::vector<std::uint8_t> data = lesson01::make_input(n, dist, course::test::seed());
  const Histogram expected = lesson01::histogram_cpu_threads(data.data(), n);
  const course::DeviceBuffer<std::uint8_t> d_data(data);
  for (const lesson01::Version& v : lesson01::versions()) {
    INFO(v.name << " " << v.idea << ", " << lesson01::dists().name(dist));
    CHECK(course::test::mismatch(run_version(v, d_data.data(), n), expected) == "");
  }
  INFO("CUB, " << lesson01::dists().name(dist));
  CHECK(course::test::mismatch(run_cub<unsigned int>(d_data.data(), n), expected) == "");
}

TEST_CASE("every version accepts any start address", "[gpu]") {
  // The vector loads read 16-byte-aligned uint4s: a start 1..15 bytes past alignment must have
  // its unaligned head and tail counted one byte at a time.
  const std::size_t capacity = 5000;
  const std::vector<std::uint8_t> data =
      lesson01::make_input(capacity, lesson01::Dist::skewed, course::test::seed());
  const course::DeviceBuffer<std::uint8_t> d_data(data);
  for (std::size_t offset = 0; offset < 16; ++offset) {
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{15}, std::size_t{17},
                          std::size_t{4096 + 7}}) {
      std::vector<std::uint8_t> slice(data.begin() + offset, data.begin() + offset + n);
      const Histogram expected = lesson01::histogram_cpu_loop(slice.data(), n);
      for (const lesson01::Version& v : lesson01::versions()) {
        INFO(v.name << ", start offset " << offset << ", n = " << n);
        CHECK(course::test::mismatch(run_version(v, d_data.data() + offset, n), expected) == "");
      }
    }
  }
}

TEST_CASE("every version is exact for any grid size, run after run", "[gpu]") {
  // A missing barrier or a lost update shows as counts that change from run to run; small grids
  // give each block more bytes, large ones more blocks merging at once.
  const std::size_t n = 1000003;
  const std::size_t offset = 3;  // and an unaligned start
  const std::vector<std::uint8_t> data =
      lesson01::make_input(n, lesson01::Dist::skewed, course::test::seed());
  const Histogram expected = lesson01::histogram_cpu_loop(data.data() + offset, n - offset);
  const course::DeviceBuffer<std::uint8_t> d_data(data);
  for (int blocks : {1, 3, 1000, 0}) {
    for (const lesson01::Version& v : lesson01::versions()) {
      for (int run = 0; run < 5; ++run) {
        INFO(v.name << ", " << blocks << " blocks (0: its own grid), run " << run);
        const Histogram got = run_version(v, d_data.data() + offset, n - offset, {nullptr, blocks});
        CHECK(course::test::mismatch(got, expected) == "");
      }
    }
  }
}

TEST_CASE("past 2^32 bytes of one value, 64-bit counters stay exact and 32-bit ones wrap",
          "[gpu][large]") {
  // 2^32 + 2^20 + 3 bytes: a 32-bit counter of them wraps to 2^20 + 3. The bytes are set on the
  // GPU (no host copy of 4 GiB); the expected counts follow from n alone.
  const std::size_t n = (std::size_t{1} << 32) + (std::size_t{1} << 20) + 3;
  const std::uint8_t value = lesson01::same_value(course::test::seed());
  course::DeviceBuffer<std::uint8_t> d_data(n);
  d_data.fill_bytes(value);
  Histogram exact{};
  exact[value] = n;
  Histogram wrapped{};
  wrapped[value] = n % (std::uint64_t{1} << 32);
  for (const lesson01::Version& v : lesson01::versions()) {
    INFO(v.name << " " << v.idea);
    CHECK(course::test::mismatch(run_version(v, d_data.data(), n),
                                 v.narrow != nullptr ? wrapped : exact) == "");
  }
  CHECK(!lesson01::narrow_counters_suffice(n));
  CHECK(course::test::mismatch(run_cub<unsigned long long>(d_data.data(), n), exact) == "");
}
