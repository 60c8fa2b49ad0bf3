// Lesson 03's tests. On the CPU: the reference against closed forms and exact integer sums, and
// the error bound against a real float loop. On the GPU: every version and cuBLAS against the
// reference, exactly on whole numbers (whose every partial sum a float holds exactly) and within
// the bound on uniform floats; the contract's sizes; many blocks and repeated runs for the locks;
// bit-identical results for the deterministic versions; misaligned arrays; past 2^31 elements.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "bits.hpp"
#include "kernels.cuh"
#include "reference.hpp"
#include "testing.hpp"

namespace {

using lesson03::Dist;

const std::vector<std::size_t> kSizes = {1, 2, 31, 32, 33, 255, 256, 257, 4097, 1000003};

// Runs one version into a poisoned result with guard zones, and returns the result.
float run_version(const lesson03::Version& v, const float* a, const float* b, std::size_t n,
                  lesson03::Workspace& ws, int blocks = 0) {
  course::test::GuardedBuffer<float> result(1);
  result.poison(0xFF);
  v.run(a, b, n, result.data(), ws, {nullptr, blocks});
  const float got = result.download()[0];
  REQUIRE(result.guards_intact());
  return got;
}

float run_cublas(const float* a, const float* b, std::size_t n) {
  course::test::GuardedBuffer<float> result(1);
  result.poison(0xFF);
  lesson03::CublasDot cublas;
  cublas(a, b, n, result.data());
  const float got = result.download()[0];
  REQUIRE(result.guards_intact());
  return got;
}

const lesson03::Version& version(const std::string& name) {
  static const std::vector<lesson03::Version> all = lesson03::versions();
  for (const auto& v : all) {
    if (name == v.name) return v;
  }
  throw std::invalid_argument("no version " + name);
}

// Every version and cuBLAS must be within their bounds on `in` (cuBLAS, whose order of additions
// is not documented, within the loosest of the versions' bounds, as in main.cu).
void check_within_bounds(const lesson03::Inputs& in, std::size_t n, bool whole_numbers) {
  const lesson03::Reference ref = lesson03::reference_dot(in.a.data(), in.b.data(), n);
  const lesson03::DeviceInputs d(in);
  lesson03::Workspace ws;
  double loosest = 0;
  for (const lesson03::Version& v : lesson03::versions()) {
    const double bound =
        lesson03::dot_error_bound(n, ref.magnitudes, lesson03::shape_of(v, n), whole_numbers);
    loosest = std::max(loosest, bound);
    const float got = run_version(v, d.a.data(), d.b.data(), n, ws);
    INFO(v.name << ", n = " << n << ": got " << got << ", expected " << ref.dot << " within "
                << bound);
    CHECK(lesson03::dot_ok(got, ref.dot, bound));
  }
  const float got = run_cublas(d.a.data(), d.b.data(), n);
  INFO("cuBLAS, n = " << n << ": got " << got << ", expected " << ref.dot << " within " << loosest);
  CHECK(lesson03::dot_ok(got, ref.dot, loosest));
}

}  // namespace

// ---- the CPU ------------------------------------------------------------------------------------

TEST_CASE("the reference matches the book's closed form where the source's input is exact",
          "[cpu]") {
  // Below 2^24 the arrays hold i and 2i exactly, and below 2^53 the double sum is exact.
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{1000}, std::size_t{100003}}) {
    const lesson03::Inputs in = lesson03::make_inputs(n, Dist::source, 0);
    INFO("n = " << n);
    CHECK(lesson03::reference_dot(in.a.data(), in.b.data(), n, 3).dot ==
          lesson03::source_closed_form(n));
  }
}

TEST_CASE("the reference is exact on whole numbers, with any number of threads", "[cpu]") {
  const std::size_t n = 1000003;
  const lesson03::Inputs in = lesson03::make_inputs(n, Dist::integers, course::test::seed());
  long long dot = 0;
  long long magnitudes = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const long long p = static_cast<long long>(in.a[i]) * static_cast<long long>(in.b[i]);
    dot += p;
    magnitudes += p < 0 ? -p : p;
  }
  CHECK(std::all_of(in.a.begin(), in.a.end(),
                    [](float v) { return v == std::floor(v) && v >= -4.0f && v <= 4.0f; }));
  for (unsigned threads : {1u, 7u, 64u}) {
    const lesson03::Reference ref = lesson03::reference_dot(in.a.data(), in.b.data(), n, threads);
    CHECK(ref.dot == static_cast<double>(dot));
    CHECK(ref.magnitudes == static_cast<double>(magnitudes));
  }
}

TEST_CASE("the error bound holds a real float loop, and is zero only when it must be", "[cpu]") {
  const std::uint64_t seed = course::test::seed();
  for (std::size_t n : {std::size_t{1000}, std::size_t{1000003}}) {
    const lesson03::Inputs in = lesson03::make_inputs(n, Dist::uniform, seed);
    const lesson03::Reference ref = lesson03::reference_dot(in.a.data(), in.b.data(), n);
    // One thread, one block: n products added in sequence.
    const double bound = lesson03::dot_error_bound(n, ref.magnitudes, {1, 1}, false);
    const float loop = lesson03::dot_in_float(in.a.data(), in.b.data(), n);
    INFO("n = " << n);
    CHECK(bound > 0);
    CHECK(lesson03::dot_ok(loop, ref.dot, bound));
    CHECK_FALSE(lesson03::dot_ok(static_cast<float>(ref.dot + 2 * bound), ref.dot, bound));
  }
  CHECK(lesson03::dot_error_bound(100, 1000.0, {32, 1}, true) == 0.0);
  CHECK(lesson03::dot_error_bound(100, 3e7, {32, 1}, true) > 0.0);  // past 2^24: inexact
  CHECK_FALSE(lesson03::dot_ok(std::nanf(""), 0.0, 1e30));
}

TEST_CASE("the input seed (old name) is the input source, for a release", "[cpu]") {
  CHECK(lesson03::dists().parse("seed") == lesson03::dists().parse("source"));
  CHECK(lesson03::dists().name(lesson03::dists().parse("seed")) == "source");
}

TEST_CASE("bad names and grids are refused", "[cpu]") {
  CHECK_THROWS_AS(lesson03::dists().parse("gaussian"), std::invalid_argument);
  CHECK_THROWS_AS(lesson03::check_grid(0), std::invalid_argument);
  CHECK_THROWS_AS(lesson03::check_grid(lesson03::kMaxBlocks + 1), std::invalid_argument);
  CHECK_NOTHROW(lesson03::check_grid(lesson03::kMaxBlocks));
}

// ---- the GPU ------------------------------------------------------------------------------------

TEST_CASE("every version and cuBLAS are exact on whole numbers, at every size", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  lesson03::Workspace ws;
  for (std::size_t n : kSizes) {
    const lesson03::Inputs in = lesson03::make_inputs(n, Dist::integers, seed + n);
    const lesson03::Reference ref = lesson03::reference_dot(in.a.data(), in.b.data(), n);
    REQUIRE(ref.magnitudes < 16777216.0);  // so every partial sum is exact
    const lesson03::DeviceInputs d(in);
    for (const lesson03::Version& v : lesson03::versions()) {
      INFO(v.name << " " << v.idea << ", n = " << n);
      CHECK(static_cast<double>(run_version(v, d.a.data(), d.b.data(), n, ws)) == ref.dot);
    }
    INFO("cuBLAS, n = " << n);
    CHECK(static_cast<double>(run_cublas(d.a.data(), d.b.data(), n)) == ref.dot);
  }
}

TEST_CASE("every version and cuBLAS are within the bound on uniform floats", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (std::size_t n : {std::size_t{4097}, std::size_t{1000003}, std::size_t{(1u << 25) + 3}}) {
    check_within_bounds(lesson03::make_inputs(n, Dist::uniform, seed + n), n, false);
  }
}

TEST_CASE("on the source's input, every version and cuBLAS are within the bound", "[gpu]") {
  const std::size_t n = std::size_t{33} << 20;  // the book's size: past 2^24, the arrays round
  check_within_bounds(lesson03::make_inputs(n, Dist::source, 0), n, true);
}

TEST_CASE("the correct locks and atomicAdd lose nothing: many blocks per SM, 20 runs", "[gpu]") {
  // Whole numbers with sum |a b| < 2^24: any lost or repeated block sum changes the result.
  const std::size_t n = std::size_t{1} << 20;
  const lesson03::Inputs in = lesson03::make_inputs(n, Dist::integers, course::test::seed());
  const lesson03::Reference ref = lesson03::reference_dot(in.a.data(), in.b.data(), n);
  REQUIRE(ref.magnitudes < 16777216.0);
  const lesson03::DeviceInputs d(in);
  lesson03::Workspace ws;
  const int sms = course::sm_count();
  for (const char* name : {"v1a", "v1b", "v2"}) {
    // 8 blocks per SM (all resident), then more blocks than fit at once.
    for (int blocks : {2 * sms, 8 * sms, lesson03::kMaxBlocks}) {
      int wrong = 0;
      for (int r = 0; r < 20; ++r) {
        if (static_cast<double>(
                run_version(version(name), d.a.data(), d.b.data(), n, ws, blocks)) != ref.dot) {
          ++wrong;
        }
      }
      INFO(name << " with " << blocks << " blocks");
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("v0 is right while no SM runs two of its blocks", "[gpu]") {
  const std::size_t n = std::size_t{1} << 20;
  const lesson03::Inputs in = lesson03::make_inputs(n, Dist::integers, course::test::seed());
  const lesson03::Reference ref = lesson03::reference_dot(in.a.data(), in.b.data(), n);
  const lesson03::DeviceInputs d(in);
  lesson03::Workspace ws;
  REQUIRE(lesson03::source_grid(n) <= course::sm_count());
  for (int r = 0; r < 20; ++r) {
    CHECK(static_cast<double>(run_version(version("v0"), d.a.data(), d.b.data(), n, ws)) ==
          ref.dot);
  }
}

TEST_CASE("v3 and v4 give the same bits on every run", "[gpu]") {
  const std::size_t n = std::size_t{1} << 22;
  const lesson03::Inputs in = lesson03::make_inputs(n, Dist::uniform, course::test::seed());
  const lesson03::DeviceInputs d(in);
  lesson03::Workspace ws;
  for (const char* name : {"v3", "v4"}) {
    const std::uint32_t first =
        course::bits_of(run_version(version(name), d.a.data(), d.b.data(), n, ws));
    for (int r = 0; r < 10; ++r) {
      INFO(name << ", run " << r);
      CHECK(course::bits_of(run_version(version(name), d.a.data(), d.b.data(), n, ws)) == first);
    }
  }
}

TEST_CASE("v4 handles arrays that start off 16-byte boundaries, equally or not", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  const std::size_t total = 5000;
  const lesson03::Inputs in = lesson03::make_inputs(total, Dist::integers, seed);
  const lesson03::DeviceInputs d(in);
  lesson03::Workspace ws;
  for (std::size_t offset_a : {0, 1, 3}) {
    for (std::size_t offset_b : {0, 1, 2}) {
      for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{33}, std::size_t{4097}}) {
        const lesson03::Reference ref =
            lesson03::reference_dot(in.a.data() + offset_a, in.b.data() + offset_b, n, 1);
        INFO("a + " << offset_a << ", b + " << offset_b << ", n = " << n);
        CHECK(static_cast<double>(run_version(version("v4"), d.a.data() + offset_a,
                                              d.b.data() + offset_b, n, ws)) == ref.dot);
      }
    }
  }
}

TEST_CASE("past 2^31 elements, every version and cuBLAS are within the bound", "[gpu][large]") {
  const std::size_t n = (std::size_t{1} << 31) + 7;
  check_within_bounds(lesson03::make_inputs(n, Dist::source, 0), n, true);
}
