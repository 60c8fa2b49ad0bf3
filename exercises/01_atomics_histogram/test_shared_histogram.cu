// Grades exercise 1 of lesson 01: histogram_shared in shared_histogram.cuh. Inputs are random,
// with a fresh seed each run (printed at the start; COURSE_TEST_SEED repeats it).
#include <shared_histogram.cuh>  // <>: the starter or the solution, whichever the build chose

#include <string>
#include <vector>

#include "reference.hpp"
#include "testing.hpp"

namespace {

// Runs the student's histogram into a poisoned output with guard zones.
std::vector<unsigned long long> student_histogram(const std::vector<std::uint8_t>& data,
                                                  std::size_t offset = 0) {
  course::DeviceBuffer<std::uint8_t> d_data(data.size() + offset + 1);
  d_data.upload(data.data(), data.size(), offset);
  course::test::GuardedBuffer<unsigned long long> bins(exercise01::kBins);
  bins.poison(0xEE);
  exercise01::histogram_shared(d_data.data() + offset, data.size(), bins.data());
  std::vector<unsigned long long> counts = bins.download();
  REQUIRE(bins.guards_intact());  // nothing written outside the 256 bins
  return counts;
}

std::vector<unsigned long long> expected_histogram(const std::vector<std::uint8_t>& data) {
  const lesson01::Histogram h = lesson01::histogram_cpu_loop(data.data(), data.size());
  return std::vector<unsigned long long>(h.begin(), h.end());
}

}  // namespace

TEST_CASE("the shared-memory histogram counts every size exactly", "[gpu]") {
  const std::string dist = GENERATE(as<std::string>{}, "uniform", "same", "skewed");
  const std::uint64_t seed = course::test::seed();
  std::vector<std::size_t> sizes = {1, 2, 31, 32, 33, 255, 256, 257, 4097, 1000003};
  sizes.push_back(1 + seed % 300000);  // and one size nobody can guess in advance
  for (std::size_t n : sizes) {
    const std::vector<std::uint8_t> data = lesson01::make_input(n, dist, seed + n);
    INFO(dist << ", n = " << n);
    CHECK(course::test::mismatch(student_histogram(data), expected_histogram(data)) == "");
  }
}

TEST_CASE("the histogram is exact on a large input, run after run", "[gpu]") {
  // Many blocks merge at once: a missing barrier or a non-atomic update loses counts, and not
  // always the same ones.
  const std::size_t n = (std::size_t{24} << 20) + 11;
  const std::vector<std::uint8_t> data = lesson01::make_input(n, "skewed", course::test::seed());
  const std::vector<unsigned long long> expected = expected_histogram(data);
  for (int run = 0; run < 4; ++run) {
    INFO("run " << run);
    CHECK(course::test::mismatch(student_histogram(data, run % 3), expected) == "");
  }
}
