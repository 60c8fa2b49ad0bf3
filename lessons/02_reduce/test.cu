// Lesson 02's tests. On the CPU: the references against closed forms and independent sums. On the
// GPU: every version and CUB against the reference, exactly for ints and for whole numbers held
// as floats (whose every partial sum is exact), within the bound for uniform floats; on the
// contract's sizes, misaligned starts, repeated runs (bit-identical results), and past 2^31
// elements.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "bits.hpp"
#include "kernels.cuh"
#include "reference.hpp"
#include "testing.hpp"

namespace {

using lesson02::Dist;

const std::vector<std::size_t> kSizes = {1, 2, 31, 32, 33, 255, 256, 257, 4097, 1000003};

// Runs one version into a poisoned result with guard zones, and returns the result.
template <typename T>
T run_version(const lesson02::Version<T>& v, const T* d_in, std::size_t n) {
  lesson02::Workspace<T> ws(n);
  course::test::GuardedBuffer<T> result(1);
  result.poison(0xFF);
  v.run(d_in, n, result.data(), ws, {});
  const T got = result.download()[0];
  REQUIRE(result.guards_intact());
  return got;
}

template <typename T>
T run_cub(const T* d_in, std::size_t n) {
  course::test::GuardedBuffer<T> result(1);
  result.poison(0xFF);
  lesson02::CubSum<T> cub(n);
  cub(d_in, result.data());
  const T got = result.download()[0];
  REQUIRE(result.guards_intact());
  return got;
}

// Every version and CUB must sum `data` (already on the GPU at d_data) to `expected` exactly.
template <typename T>
void check_exact(const T* d_data, std::size_t n, lesson02::Wide<T> expected,
                 const std::string& what) {
  for (const lesson02::Version<T>& v : lesson02::versions<T>()) {
    INFO(v.name << " " << v.idea << ", " << what << ", n = " << n);
    CHECK(static_cast<lesson02::Wide<T>>(run_version(v, d_data, n)) == expected);
  }
  INFO("CUB, " << what << ", n = " << n);
  CHECK(static_cast<lesson02::Wide<T>>(run_cub(d_data, n)) == expected);
}

template <typename T>
__global__ void generate_kernel(T* out, std::size_t n, std::uint64_t seed, Dist dist) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    out[i] = lesson02::element<T>(seed, i, dist);
  }
}

}  // namespace

// ---- the CPU ------------------------------------------------------------------------------------

TEST_CASE("the int references agree with closed forms and with std::accumulate", "[cpu]") {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{100003}}) {
    std::vector<int> counting(n);
    std::iota(counting.begin(), counting.end(), 1);
    const long long triangle = static_cast<long long>(n) * static_cast<long long>(n + 1) / 2;
    CHECK(lesson02::reference_sum(counting.data(), n) == triangle);
    const std::vector<int> x = lesson02::make_input<int>(n, Dist::uniform, course::test::seed());
    const long long oracle = std::accumulate(x.begin(), x.end(), 0LL);
    CHECK(lesson02::reference_sum(x.data(), n) == oracle);
    for (unsigned threads : {1u, 3u, 64u}) {
      CHECK(lesson02::reference_sum_threads(x.data(), n, threads) == oracle);
    }
    CHECK(lesson02::reference_sum_of<int>(n, Dist::uniform, course::test::seed()) == oracle);
  }
}

TEST_CASE("the float reference agrees with a compensated sum in long double", "[cpu]") {
  const std::size_t n = 1000003;
  const std::vector<float> x = lesson02::make_input<float>(n, Dist::uniform, course::test::seed());
  long double sum = 0;
  long double compensation = 0;  // Kahan: the low bits each addition lost
  for (float v : x) {
    const long double y = v - compensation;
    const long double t = sum + y;
    compensation = (t - sum) - y;
    sum = t;
  }
  const double tolerance = 1e-10 * lesson02::sum_of_magnitudes(x.data(), n);
  CHECK(std::fabs(lesson02::reference_sum(x.data(), n) - static_cast<double>(sum)) <= tolerance);
  CHECK(std::fabs(lesson02::reference_sum_threads(x.data(), n, 5) - static_cast<double>(sum)) <=
        tolerance);
}

TEST_CASE("the inputs: ranges, whole numbers, determinism", "[cpu]") {
  const std::uint64_t seed = course::test::seed();
  const auto floats = lesson02::make_input<float>(100000, Dist::uniform, seed);
  CHECK(*std::min_element(floats.begin(), floats.end()) >= -1.0f);
  CHECK(*std::max_element(floats.begin(), floats.end()) < 1.0f);
  const auto whole = lesson02::make_input<float>(100000, Dist::integers, seed);
  CHECK(std::all_of(whole.begin(), whole.end(),
                    [](float v) { return v == std::floor(v) && v >= -8.0f && v <= 8.0f; }));
  const auto ints = lesson02::make_input<int>(100000, Dist::uniform, seed);
  CHECK(*std::min_element(ints.begin(), ints.end()) == -8);
  CHECK(*std::max_element(ints.begin(), ints.end()) == 8);
  CHECK(lesson02::make_input<float>(1000, Dist::uniform, seed) ==
        lesson02::make_input<float>(1000, Dist::uniform, seed));
  CHECK(lesson02::make_input<float>(1000, Dist::uniform, seed) !=
        lesson02::make_input<float>(1000, Dist::uniform, seed + 1));
  REQUIRE_THROWS(lesson02::dists().parse("gaussian"));
}

TEST_CASE("the float bound holds for a tree sum and is tighter than n roundings", "[cpu]") {
  // A pairwise (tree) sum in float, as the GPU versions' trees add: within the bound.
  const std::size_t n = 1 << 20;
  const auto x = lesson02::make_input<float>(n, Dist::uniform, course::test::seed());
  std::vector<float> level(x);
  while (level.size() > 1) {
    std::vector<float> next((level.size() + 1) / 2);
    for (std::size_t i = 0; i < next.size(); ++i) {
      next[i] = level[2 * i] + (2 * i + 1 < level.size() ? level[2 * i + 1] : 0.0f);
    }
    level.swap(next);
  }
  const double magnitudes = lesson02::sum_of_magnitudes(x.data(), n);
  const double bound = lesson02::float_error_bound(n, magnitudes);
  CHECK(std::fabs(level[0] - lesson02::reference_sum(x.data(), n)) <= bound);
  CHECK(bound < n * std::ldexp(1.0, -24) * magnitudes / 100);  // a sequential loop's bound
}

// ---- the GPU ------------------------------------------------------------------------------------

TEST_CASE("every version sums ints exactly, at every size", "[gpu]") {
  for (std::size_t n : kSizes) {
    const auto x = lesson02::make_input<int>(n, Dist::uniform, course::test::seed() + n);
    const course::DeviceBuffer<int> d_x(x);
    check_exact(d_x.data(), n, lesson02::reference_sum(x.data(), n), "ints");
  }
}

TEST_CASE("every version sums whole-number floats exactly, at every size", "[gpu]") {
  // A lost or doubled element changes such a sum; no rounding can hide it.
  for (std::size_t n : kSizes) {
    const auto x = lesson02::make_input<float>(n, Dist::integers, course::test::seed() + n);
    const course::DeviceBuffer<float> d_x(x);
    check_exact(d_x.data(), n, lesson02::reference_sum(x.data(), n), "whole-number floats");
  }
}

TEST_CASE("every version sums uniform floats within the error bound", "[gpu]") {
  for (std::size_t n :
       {std::size_t{1}, std::size_t{257}, std::size_t{1000003}, (std::size_t{1} << 25) + 3}) {
    const auto x = lesson02::make_input<float>(n, Dist::uniform, course::test::seed() + n);
    const course::DeviceBuffer<float> d_x(x);
    const double expected = lesson02::reference_sum(x.data(), n);
    const double bound = lesson02::float_error_bound(n, lesson02::sum_of_magnitudes(x.data(), n));
    for (const lesson02::Version<float>& v : lesson02::versions<float>()) {
      const float got = run_version(v, d_x.data(), n);
      INFO(v.name << ", n = " << n << ": " << got << " against " << expected << ", bound "
                  << bound);
      CHECK(lesson02::sum_ok(got, expected, bound));
    }
    const float got = run_cub(d_x.data(), n);
    INFO("CUB, n = " << n << ": " << got << " against " << expected);
    CHECK(lesson02::sum_ok(got, expected, bound));
  }
}

TEST_CASE("every version sums a large input exactly", "[gpu]") {
  const std::size_t n = (std::size_t{1} << 26) + 3;
  const auto ints = lesson02::make_input<int>(n, Dist::uniform, course::test::seed());
  const course::DeviceBuffer<int> d_ints(ints);
  check_exact(d_ints.data(), n, lesson02::reference_sum_threads(ints.data(), n), "ints");
  const auto floats = lesson02::make_input<float>(n, Dist::integers, course::test::seed());
  const course::DeviceBuffer<float> d_floats(floats);
  check_exact(d_floats.data(), n, lesson02::reference_sum_threads(floats.data(), n),
              "whole-number floats");
}

TEST_CASE("every version accepts any start address", "[gpu]") {
  // 16-byte loads need an aligned start: v6 and v7 sum an unaligned head and tail one element at
  // a time. Starts 0 to 3 elements (0 to 12 bytes) past a 16-byte boundary.
  const auto x = lesson02::make_input<float>(5000, Dist::integers, course::test::seed());
  const course::DeviceBuffer<float> d_x(x);
  for (std::size_t offset = 0; offset < 4; ++offset) {
    for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{5}, std::size_t{4093}}) {
      check_exact(d_x.data() + offset, n, lesson02::reference_sum(x.data() + offset, n),
                  "start offset " + std::to_string(offset));
    }
  }
}

TEST_CASE("every version gives the same float sum, bit for bit, run after run", "[gpu]") {
  // No version depends on the order in which blocks finish, so none may vary; and v7's counter of
  // finished blocks must be back at zero after each launch, or the next launch goes wrong.
  const std::size_t n = 1000003;
  const auto x = lesson02::make_input<float>(n, Dist::uniform, course::test::seed());
  const course::DeviceBuffer<float> d_x(x);
  for (const lesson02::Version<float>& v : lesson02::versions<float>()) {
    lesson02::Workspace<float> ws(n);
    course::DeviceBuffer<float> result(1);
    unsigned int first = 0;
    for (int run = 0; run < 10; ++run) {
      result.fill_bytes(0xFF);
      v.run(d_x.data(), n, result.data(), ws, {});
      const unsigned int bits = course::bits_of(result.download()[0]);
      if (run == 0) first = bits;
      INFO(v.name << ", run " << run);
      CHECK(bits == first);
    }
  }
}

TEST_CASE("past 2^31 elements, every version is exact", "[gpu][large]") {
  // 2^31 + 2^20 + 3 elements, made on the GPU by the same generator the CPU uses.
  const std::size_t n = (std::size_t{1} << 31) + (std::size_t{1} << 20) + 3;
  const std::uint64_t seed = course::test::seed();
  {
    course::DeviceBuffer<int> d_x(n);
    generate_kernel<<<1024, 256>>>(d_x.data(), n, seed, Dist::uniform);
    CUDA_CHECK_LAUNCH();
    check_exact(d_x.data(), n, lesson02::reference_sum_of<int>(n, Dist::uniform, seed), "ints");
  }
  {
    course::DeviceBuffer<float> d_x(n);
    generate_kernel<<<1024, 256>>>(d_x.data(), n, seed, Dist::integers);
    CUDA_CHECK_LAUNCH();
    check_exact(d_x.data(), n, lesson02::reference_sum_of<float>(n, Dist::integers, seed),
                "whole-number floats");
  }
}
