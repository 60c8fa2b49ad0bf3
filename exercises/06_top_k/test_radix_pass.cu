// Grades exercise 4 of lesson 06: digit_histogram_kernel and choose_bucket_kernel in
// radix_pass.cuh. Each pass's histogram and choice against the CPU's (reference.hpp), for every
// digit and prefix; then three passes must find the k-th largest key. Fresh random inputs each run
// (the seed is printed).
#include <radix_pass.cuh>  // <>: the starter or the solution, whichever the build chose

#include <algorithm>
#include <functional>
#include <vector>

#include "device_memory.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace {

struct Pass {
  course::DeviceBuffer<unsigned long long> histogram{lesson06::kMaxBins};
  course::DeviceBuffer<lesson06::BucketChoice> choice{1};
};

}  // namespace

TEST_CASE("one pass: the digit's histogram and the choice of bucket", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  Pass pass;
  for (lesson06::Dist dist : {lesson06::Dist::seed, lesson06::Dist::dups, lesson06::Dist::extremes,
                              lesson06::Dist::ascending}) {
    const std::vector<lesson06::Key> keys =
        lesson06::keys_of(lesson06::make_input<float>(300007, dist, seed));
    const course::DeviceBuffer<lesson06::Key> d_keys(keys);
    for (std::size_t k : {std::size_t{1}, std::size_t{1000}, std::size_t{150000}}) {
      // The passes of a real select: each with the prefix the pass before chose.
      lesson06::Key prefix = 0;
      lesson06::Key mask = 0;
      std::uint64_t remaining = k;
      for (int round = 0; round < lesson06::kDigits; ++round) {
        const lesson06::Digit digit = lesson06::digit_plan(round);
        const std::vector<std::uint64_t> bins =
            lesson06::digit_histogram(keys, digit, prefix, mask);
        const lesson06::BucketChoice expected = lesson06::choose_bucket(bins, remaining);
        const lesson06::BucketChoice got =
            exercise06::radix_pass(d_keys.data(), keys.size(), digit, prefix, mask, remaining,
                                   pass.histogram.data(), pass.choice.data());
        std::vector<unsigned long long> histogram = pass.histogram.download();
        histogram.resize(digit.bins());
        INFO(lesson06::dist_name(dist) << ", k = " << k << ", digit " << round);
        REQUIRE(course::test::mismatch(histogram, bins) == "");
        REQUIRE(got.bucket == expected.bucket);
        REQUIRE(got.remaining == expected.remaining);
        prefix |= static_cast<lesson06::Key>(expected.bucket) << digit.shift;
        mask |= digit.mask();
        remaining = expected.remaining;
      }
    }
  }
}

TEST_CASE("three passes find the k-th largest key", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  Pass pass;
  for (std::size_t n : {std::size_t{1}, std::size_t{257}, std::size_t{100003}}) {
    const std::vector<lesson06::Key> keys =
        lesson06::keys_of(lesson06::make_input<std::int32_t>(n, lesson06::Dist::seed, seed + n));
    std::vector<lesson06::Key> sorted = keys;
    std::sort(sorted.begin(), sorted.end(), std::greater<lesson06::Key>());
    const course::DeviceBuffer<lesson06::Key> d_keys(keys);
    for (std::size_t k : {std::size_t{1}, (n + 1) / 2, n}) {
      lesson06::Key prefix = 0;
      lesson06::Key mask = 0;
      unsigned long long remaining = k;
      for (int round = 0; round < lesson06::kDigits; ++round) {
        const lesson06::Digit digit = lesson06::digit_plan(round);
        const lesson06::BucketChoice got =
            exercise06::radix_pass(d_keys.data(), n, digit, prefix, mask, remaining,
                                   pass.histogram.data(), pass.choice.data());
        prefix |= static_cast<lesson06::Key>(got.bucket) << digit.shift;
        mask |= digit.mask();
        remaining = got.remaining;
      }
      INFO("n = " << n << ", k = " << k);
      CHECK(prefix == sorted[k - 1]);
    }
  }
}
