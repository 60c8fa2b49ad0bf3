// Grades exercise 2 of lesson 01: histogram_general in general_histogram.cuh, for any block size
// and any number of bins up to 4096. Fresh random inputs each run (the seed is printed).
#include <general_histogram.cuh>  // <>: the starter or the solution, whichever the build chose

#include <vector>

#include "reference.hpp"
#include "testing.hpp"

namespace {

std::vector<std::uint64_t> student_histogram(const std::vector<std::uint16_t>& values,
                                             unsigned num_bins, int threads) {
  const course::DeviceBuffer<std::uint16_t> d_values(values);
  course::test::GuardedBuffer<unsigned long long> bins(num_bins);
  bins.poison(0xEE);
  exercise01::histogram_general(d_values.data(), values.size(), num_bins, threads, bins.data());
  const std::vector<unsigned long long> counts = bins.download();
  REQUIRE(bins.guards_intact());  // nothing written outside bins[0, num_bins)
  return std::vector<std::uint64_t>(counts.begin(), counts.end());
}

}  // namespace

TEST_CASE("any block size and any number of bins up to 4096", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  const unsigned num_bins = GENERATE(1u, 7u, 255u, 256u, 257u, 1000u, 4096u);
  for (int threads : {32, 64, 96, 200, 256, 512, 1000, 1024}) {
    for (std::size_t n : {std::size_t{1}, std::size_t{257}, std::size_t{100003}}) {
      // Values up to num_bins + 40: some must not be counted.
      const auto values =
          course::random_ints<std::uint16_t>(n, seed + n + threads, 0, num_bins + 40);
      INFO(num_bins << " bins, " << threads << " threads per block, n = " << n);
      CHECK(course::test::mismatch(student_histogram(values, num_bins, threads),
                                   lesson01::histogram_of_values(values.data(), n, num_bins)) ==
            "");
    }
  }
}

TEST_CASE("all values in one bin, and values all out of range", "[gpu]") {
  const unsigned num_bins = 4096;
  const std::size_t n = (std::size_t{1} << 22) + 3;
  const auto one_bin =
      std::vector<std::uint16_t>(n, static_cast<std::uint16_t>(course::test::seed() % num_bins));
  CHECK(course::test::mismatch(student_histogram(one_bin, num_bins, 384),
                               lesson01::histogram_of_values(one_bin.data(), n, num_bins)) == "");
  const auto too_big = std::vector<std::uint16_t>(n, 5000);
  CHECK(course::test::mismatch(student_histogram(too_big, num_bins, 128),
                               std::vector<std::uint64_t>(num_bins, 0)) == "");
}
