// Grades exercise 2 of lesson 01: the general histogram (general_histogram.cuh), for any block
// size and any number of bins up to 4096, exact on every input; and a probe of its atomics checks
// the technique: every counted value one shared-memory atomicAdd, and global memory touched only by
// the merge. Fresh random inputs each run (the seed is printed).
#include <vector>

#include "general_histogram_harness.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace {

std::vector<std::uint64_t> student_histogram(const std::vector<std::uint16_t>& values,
                                             unsigned num_bins, int threads) {
  const course::DeviceBuffer<std::uint16_t> d_values(values);
  course::test::GuardedBuffer<unsigned long long> bins(num_bins);
  bins.poison(0xEE);
  grading01::general_histogram(d_values.data(), values.size(), num_bins, threads, bins.data());
  const std::vector<unsigned long long> counts = bins.download();
  REQUIRE(bins.guards_intact());  // nothing written outside bins[0, num_bins)
  return std::vector<std::uint64_t>(counts.begin(), counts.end());
}

}  // namespace

TEST_CASE("any block size and any number of bins up to 4096", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  const unsigned num_bins = GENERATE(1u, 7u, 255u, 256u, 257u, 1000u, 4096u);
  for (int threads : {1, 32, 64, 96, 200, 256, 512, 1000, 1024}) {
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

TEST_CASE("each counted value is one shared-memory atomicAdd, and global ones only merge",
          "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (const unsigned num_bins : {300u, 4096u}) {
    for (const int threads : {96, 1024}) {
      const std::size_t n = 200003;
      const auto values = course::random_ints<std::uint16_t>(n, seed + threads, 0, num_bins + 40);
      const course::DeviceBuffer<std::uint16_t> d_values(values);
      course::test::GuardedBuffer<unsigned long long> bins(num_bins);
      const grading::AtomicReport report =
          grading01::general_histogram_probed(d_values.data(), n, num_bins, threads, bins.data());
      std::size_t counted = 0;
      for (std::uint16_t v : values)
        counted += v < num_bins;
      INFO(num_bins << " bins, " << threads << " threads per block");
      REQUIRE(course::test::mismatch(bins.download(), lesson01::histogram_of_values(
                                                          values.data(), n, num_bins)) == "");
      INFO("shared-memory atomicAdd calls: " << report.counts.shared_adds
                                             << "; the values below num_bins: " << counted);
      CHECK(report.counts.shared_adds == counted);
      const unsigned long long merges = static_cast<unsigned long long>(report.blocks) * num_bins;
      INFO("global atomicAdd calls: " << report.counts.global_adds
                                      << "; at most one per bin and block: " << merges);
      CHECK(report.counts.global_adds <= merges);
    }
  }
}
