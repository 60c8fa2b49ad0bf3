// Grades exercise 1 of lesson 01: the per-warp histogram (per_warp_histogram.cuh). The histogram
// must be exact at every size, on every input, run after run; and a probe of its atomics checks
// the technique: every byte one shared-memory atomicAdd into its own warp's histogram, and global
// memory touched only by the merge. Inputs are random, with a fresh seed each run (printed at the
// start; COURSE_TEST_SEED repeats it).
#include <string>
#include <vector>

#include "per_warp_histogram_harness.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace {

constexpr std::size_t kBins = 256;

// The student's histogram of `data` (at `offset` bytes into its buffer), into a poisoned output
// with guard zones.
std::vector<unsigned long long> student_histogram(const std::vector<std::uint8_t>& data,
                                                  std::size_t offset = 0) {
  course::DeviceBuffer<std::uint8_t> d_data(data.size() + offset + 1);
  d_data.upload(data.data(), data.size(), offset);
  course::test::GuardedBuffer<unsigned long long> bins(kBins);
  bins.poison(0xEE);
  grading01::per_warp_histogram(d_data.data() + offset, data.size(), bins.data());
  std::vector<unsigned long long> counts = bins.download();
  REQUIRE(bins.guards_intact());  // nothing written outside the 256 bins
  return counts;
}

std::vector<unsigned long long> expected_histogram(const std::vector<std::uint8_t>& data) {
  const lesson01::Histogram h = lesson01::histogram_cpu_loop(data.data(), data.size());
  return std::vector<unsigned long long>(h.begin(), h.end());
}

}  // namespace

TEST_CASE("the per-warp histogram counts every size exactly", "[gpu]") {
  const lesson01::Dist dist = GENERATE(from_range(lesson01::dists().all()));
  const std::uint64_t seed = course::test::seed();
  std::vector<std::size_t> sizes = {1, 2, 31, 32, 33, 255, 256, 257, 4097, 1000003};
  sizes.push_back(1 + seed % 300000);  // and one size nobody can guess in advance
  for (std::size_t n : sizes) {
    const std::vector<std::uint8_t> data = lesson01::make_input(n, dist, seed + n);
    INFO(lesson01::dists().name(dist) << ", n = " << n);
    CHECK(course::test::mismatch(student_histogram(data), expected_histogram(data)) == "");
  }
}

TEST_CASE("the per-warp histogram is exact on a large input, run after run", "[gpu]") {
  // Many blocks merge at once: a missing barrier or a non-atomic merge loses counts, and not
  // always the same ones.
  const std::size_t n = (std::size_t{24} << 20) + 11;
  const std::vector<std::uint8_t> data =
      lesson01::make_input(n, lesson01::Dist::skewed, course::test::seed());
  const std::vector<unsigned long long> expected = expected_histogram(data);
  for (int run = 0; run < 4; ++run) {
    INFO("run " << run);
    CHECK(course::test::mismatch(student_histogram(data, run % 3), expected) == "");
  }
}

TEST_CASE("every byte is one shared-memory atomicAdd into its warp's own histogram", "[gpu]") {
  // All bytes equal: one bin is hit by everyone. One histogram per block puts every block's
  // atomics on one shared word; one per warp spreads them over kWarpsPerBlock words.
  const std::size_t n = (std::size_t{1} << 20) + 7;
  const std::vector<std::uint8_t> data =
      lesson01::make_input(n, lesson01::Dist::same, course::test::seed());
  const course::DeviceBuffer<std::uint8_t> d_data(data);
  course::test::GuardedBuffer<unsigned long long> bins(kBins);
  bins.poison(0xEE);
  const grading::AtomicReport report =
      grading01::per_warp_histogram_probed(d_data.data(), n, bins.data());
  REQUIRE(course::test::mismatch(bins.download(), expected_histogram(data)) == "");

  INFO("shared-memory atomicAdd calls: " << report.counts.shared_adds << "; the bytes: " << n);
  CHECK(report.counts.shared_adds == n);
  const unsigned long long merges = static_cast<unsigned long long>(report.blocks) * kBins;
  INFO("global atomicAdd calls: " << report.counts.global_adds
                                  << "; at most one per bin and block: " << merges);
  CHECK(report.counts.global_adds <= merges);
  unsigned fewest = ~0u;
  for (unsigned hit : report.shared_words_hit)
    fewest = hit < fewest ? hit : fewest;
  INFO("one histogram per warp: on all-equal bytes, each block adds to one word in each of its "
       << grading01::kWarpsPerBlock << " warps' histograms; the fewest shared words a block "
       << "added to: " << fewest);
  CHECK(fewest >= static_cast<unsigned>(grading01::kWarpsPerBlock));
}

TEST_CASE("timing: 256 MiB of random bytes", "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR in the lesson's
  // CMakeLists.txt): a histogram that counts in global memory, or serialises a block on one
  // word, takes several times as long.
  const std::size_t n = std::size_t{256} << 20;
  const std::vector<std::uint8_t> data =
      lesson01::make_input(n, lesson01::Dist::uniform, course::test::seed());
  const course::DeviceBuffer<std::uint8_t> d_data(data);
  course::DeviceBuffer<unsigned long long> bins(kBins);
  course::test::report_time([&] { grading01::per_warp_histogram(d_data.data(), n, bins.data()); });
  REQUIRE(course::test::mismatch(bins.download(), expected_histogram(data)) == "");
}
