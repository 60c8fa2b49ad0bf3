// Grades exercise 2 of lesson 01: the general histogram (general_histogram.cuh), for any block
// size and any number of bins up to 4096, exact on every input: values over the whole 16-bit range,
// counts past 16 bits in one block and past 32 bits in one bin; and a probe of its atomics checks
// the technique: every counted value one shared-memory atomicAdd, and global memory touched only by
// the merge. Inputs, sizes, bin counts and block sizes come from the run's seed (printed at the
// start; COURSE_TEST_SEED repeats it).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "../../probes/atomic_checks.hpp"
#include "general_histogram_harness.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace {

using course::test::drawn;

// The values a run counted: in host memory, or (`host` null) n values all equal to `value` but
// for the `noise` ones at [at, at + noise.size()).
struct Values {
  const std::uint16_t* host;
  std::uint16_t value;
  const std::vector<std::uint16_t>* noise;
  std::size_t at;
};

// Per thread of the grid, the two sums check_thread_words asks for, over the counters of the
// values below num_bins that the statement's grid-stride loop gives it (thread t of block b reads
// values b * threads + t + k * blocks * threads), the counters num_bins words from `base` on.
std::vector<unsigned long long> thread_word_sums(const Values& values, std::size_t n,
                                                 unsigned num_bins, int threads, std::size_t base) {
  const std::size_t stride =
      static_cast<std::size_t>(grading01::general_histogram_blocks()) * threads;
  grading::ThreadWordSums sums(stride);
  const auto word = [&](std::size_t, std::uint16_t v) {
    return v < num_bins ? base + v : grading::ThreadWordSums::kUncounted;
  };
  if (values.host != nullptr) {
    sums.add_grid_stride(values.host, n, word);
    return sums.sums();
  }
  const auto add = [&](std::size_t t, std::uint16_t v, long long times) {
    if (v < num_bins) sums.add(t, base + v, times);
  };
  for (std::size_t t = 0; t < stride; ++t)
    add(t, values.value, static_cast<long long>(n / stride + (t < n % stride)));
  for (std::size_t k = 0; k < values.noise->size(); ++k) {
    add((values.at + k) % stride, values.value, -1);
    add((values.at + k) % stride, (*values.noise)[k], 1);
  }
  return sums.sums();
}

// What the probe must see of any run: each counted value one shared-memory atomicAdd that adds
// something, global adds only to merge (one per bin and block at most), no thread adding more than
// its grid-stride share of the values or merging more than its share of the bins (zeroing and
// merging step by blockDim.x), the global adds carrying every count, the shared adds landing
// in num_bins consecutive words whose totals, over the blocks, are the histogram, and each
// thread's adds those of the values it read: the counting is those adds, not something done
// beside them and replayed.
void check_technique(const grading::AtomicReport& report, std::size_t n,
                     const std::vector<std::uint64_t>& expected, unsigned num_bins, int threads,
                     const Values& values) {
  unsigned long long counted = 0;
  for (std::uint64_t count : expected)
    counted += count;
  grading::check_shared_adds(report, counted, "the values below num_bins", n, num_bins);
  INFO("what the global atomicAdd calls added, in all: "
       << report.counts.global_added << "; the values below num_bins: " << counted
       << " (the merges carry every count)");
  CHECK(report.counts.global_added == counted);
  // The counters' first word: where the first nonzero total is, less the first counted bin.
  const std::vector<unsigned long long>& totals = report.word_totals;
  std::size_t base = 0;
  const auto first_word =
      std::find_if(totals.begin(), totals.end(), [](unsigned long long t) { return t != 0; });
  const auto first_bin =
      std::find_if(expected.begin(), expected.end(), [](std::uint64_t c) { return c != 0; });
  if (first_word != totals.end() && first_bin != expected.end()) {
    const auto word = static_cast<std::size_t>(first_word - totals.begin());
    const auto bin = static_cast<std::size_t>(first_bin - expected.begin());
    base = word >= bin ? word - bin : totals.size();
  }
  std::size_t off = 0;
  std::size_t first_off = 0;
  for (std::size_t word = 0; word < totals.size(); ++word) {
    const bool counter = word >= base && word - base < num_bins;
    const unsigned long long want = counter ? expected[word - base] : 0;
    if (totals[word] != want && off++ == 0) first_off = word;
  }
  INFO(off << " shared words whose adds, over the blocks, are not the histogram's count there"
           << (off ? " (the first, word " + std::to_string(first_off) + ", was added " +
                         std::to_string(totals[first_off]) + ")"
                   : std::string())
           << ": each value is counted by its add to its own bin's shared counter");
  CHECK(off == 0);
  if (off == 0 && base < totals.size())
    grading::check_thread_words(report, thread_word_sums(values, n, num_bins, threads, base));
}

// The student's histogram into a poisoned output with guard zones. The run is probed, and its
// technique checked: the run whose counts are checked is the one the probe saw, at every size,
// shape and input, so no answer can count one way where the probe looks and another where it does
// not.
std::vector<std::uint64_t> student_histogram(const std::uint16_t* d_values, std::size_t n,
                                             unsigned num_bins, int threads,
                                             const std::vector<std::uint64_t>& expected,
                                             const Values& values,
                                             grading::AtomicReport* seen = nullptr) {
  course::test::GuardedBuffer<unsigned long long> bins(num_bins);
  bins.poison(0xEE);
  const grading::AtomicReport report =
      grading01::general_histogram_probed(d_values, n, num_bins, threads, bins.data());
  const std::vector<unsigned long long> counts = bins.download();
  REQUIRE(bins.guards_intact());  // nothing written outside bins[0, num_bins)
  check_technique(report, n, expected, num_bins, threads, values);
  if (seen != nullptr) *seen = report;
  return std::vector<std::uint64_t>(counts.begin(), counts.end());
}

// The same for values on the host; checks the counts too.
void check_student_histogram(const std::vector<std::uint16_t>& values, unsigned num_bins,
                             int threads, grading::AtomicReport* seen = nullptr) {
  const course::DeviceBuffer<std::uint16_t> d_values(values);
  const std::vector<std::uint64_t> expected =
      lesson01::histogram_of_values(values.data(), values.size(), num_bins);
  CHECK(course::test::mismatch(
            student_histogram(d_values.data(), values.size(), num_bins, threads, expected,
                              Values{values.data(), 0, nullptr, 0}, seen),
            expected) == "");
}

// n values, most of them below num_bins + 40 (so some are not counted), and about one in eight
// anywhere in the 16-bit range, 65,535 and values past 32,767 included.
std::vector<std::uint16_t> values_for(std::size_t n, unsigned num_bins, std::uint64_t seed) {
  std::vector<std::uint16_t> values =
      course::random_ints<std::uint16_t>(n, seed, 0, static_cast<std::uint16_t>(num_bins + 40));
  const auto wide = course::random_ints<std::uint16_t>(n, seed ^ 0x16B17ull, 0, 65535);
  const auto pick = course::random_ints<std::uint8_t>(n, seed ^ 0x9E37ull, 0, 7);
  for (std::size_t i = 0; i < n; ++i) {
    if (pick[i] == 0) values[i] = wide[i];
  }
  return values;
}

}  // namespace

TEST_CASE("any block size and any number of bins up to 4096", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  const std::vector<std::size_t> bin_counts =
      course::test::drawn_sizes(seed, {1, 7, 255, 256, 257, 1000, 4096}, {32, 256, 1024}, 4096, 3,
                                "general_histogram num_bins");
  const std::vector<std::size_t> block_sizes =
      course::test::drawn_sizes(seed + 1, {1, 32, 64, 96, 200, 256, 512, 1000, 1024}, {32}, 1024, 3,
                                "general_histogram threads per block");
  const std::vector<std::size_t> sizes = course::test::drawn_sizes(
      seed + 2, {1, 257, 100003}, {32, 256, 1024}, 300000, 1, "general_histogram n");
  for (const std::size_t num_bins : bin_counts) {
    for (const std::size_t threads : block_sizes) {
      for (const std::size_t n : sizes) {
        const auto values =
            values_for(n, static_cast<unsigned>(num_bins), seed + n + threads + num_bins);
        INFO(num_bins << " bins, " << threads << " threads per block, n = " << n);
        check_student_histogram(values, static_cast<unsigned>(num_bins), static_cast<int>(threads));
      }
    }
  }
}

TEST_CASE("each counted value is one shared-memory atomicAdd, and global ones only merge",
          "[gpu]") {
  // Bin counts and block sizes from the seed: one of each below 300 and 128, one above.
  const std::uint64_t seed = course::test::seed();
  const unsigned bin_counts[] = {2 + static_cast<unsigned>(drawn(seed, 40) % 298),
                                 301 + static_cast<unsigned>(drawn(seed, 41) % 3795)};
  const int block_sizes[] = {1 + static_cast<int>(drawn(seed, 42) % 127),
                             128 + static_cast<int>(drawn(seed, 43) % 897)};
  for (const unsigned num_bins : bin_counts) {
    for (const int threads : block_sizes) {
      const std::size_t n = 150000 + drawn(seed, 44 + threads) % 100000;
      const auto values = values_for(n, num_bins, seed + threads);
      INFO(num_bins << " bins, " << threads << " threads per block, n = " << n);
      check_student_histogram(values, num_bins, threads);
    }
  }
}

TEST_CASE("one value everywhere: still one shared-memory atomicAdd a value, and merges of counts",
          "[gpu]") {
  // Every value the same: each block's counts are in one bin, so its merge adds that bin's count,
  // once; a global add of 1 per value, or one shared add for a warp of equal values, is not the
  // technique. At least 4 values a block (the harness's grid) on average, so a block's merge adds
  // more than 1; the bin count (8 or more), block size, value and size come from the seed. Two
  // sizes: 4 values a thread (and one more a block, drawn), and 4 or 5 values a block, no more than
  // the blocks' counters (blocks x num_bins): an answer that adds 1 per value straight into the
  // bins whenever the input is no larger than the merges would be (which the probe above allows) is
  // caught whatever it drew.
  const std::uint64_t seed = course::test::seed();
  const unsigned num_bins = 8 + static_cast<unsigned>(drawn(seed, 60) % 4089);
  const auto value = static_cast<std::uint16_t>(drawn(seed, 61) % num_bins);
  const int blocks = grading01::general_histogram_blocks();
  for (const int threads : {32 + static_cast<int>(drawn(seed, 62) % 97),
                            256 + static_cast<int>(drawn(seed, 63) % 769)}) {
    for (const std::size_t per_block :
         {std::size_t{4} * static_cast<std::size_t>(threads), std::size_t{4}}) {
      const std::size_t n = (per_block + drawn(seed, 64) % 2) * static_cast<std::size_t>(blocks);
      const std::vector<std::uint16_t> values(n, value);
      INFO(num_bins << " bins, every value " << value << ", " << threads
                    << " threads per block, n = " << n);
      grading::AtomicReport report;
      check_student_histogram(values, num_bins, threads, &report);
      INFO("global atomicAdd calls that added exactly 1: " << report.counts.global_ones
                                                           << "; blocks: " << report.blocks);
      CHECK(report.counts.global_ones <= static_cast<unsigned long long>(report.blocks));
    }
  }
}

TEST_CASE("all values in one bin, and values all out of range", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  const unsigned num_bins = 4096;
  const std::size_t n = (std::size_t{1} << 22) + drawn(seed, 10) % 4096;
  const auto one_bin = std::vector<std::uint16_t>(n, static_cast<std::uint16_t>(seed % num_bins));
  const int threads = 1 + static_cast<int>(drawn(seed, 11) % 1024);
  INFO(n << " values, " << threads << " threads per block");
  check_student_histogram(one_bin, num_bins, threads);
  const auto too_big =
      std::vector<std::uint16_t>(n, static_cast<std::uint16_t>(4096 + drawn(seed, 12) % 61440));
  check_student_histogram(too_big, num_bins, 128);
}

TEST_CASE("counts past 65,535 of one value in one block", "[gpu]") {
  // 16-bit counters (two to a word, or a 16-bit total) wrap past 65,535: every block counts more
  // than that of one value, whatever the block size. The value, the sizes and a stretch of random
  // values (a MiB at most, fewer than 4,000 of any block's values) come from the seed.
  const std::uint64_t seed = course::test::seed();
  const unsigned num_bins = 4096;
  const int threads = 64 + static_cast<int>(drawn(seed, 20) % 961);
  const std::size_t per_block = 65536 + 5000 + 1024 + drawn(seed, 21) % 8192;
  const std::size_t n =
      per_block * static_cast<std::size_t>(grading01::general_histogram_blocks()) +
      drawn(seed, 22) % 1024;
  const auto value = static_cast<std::uint16_t>(drawn(seed, 23) % num_bins);
  std::vector<std::uint16_t> values(n, value);
  const std::size_t noise = (std::size_t{1} << 20) - drawn(seed, 24) % 4096;
  const std::size_t at = drawn(seed, 25) % (n - noise);
  const auto random = course::random_ints<std::uint16_t>(noise, seed, 0, 65535);
  std::copy(random.begin(), random.end(), values.begin() + static_cast<std::ptrdiff_t>(at));
  INFO("every block counts more than 65,535 of one value (n = "
       << n << ", the value " << value << ", " << threads << " threads per block)");
  check_student_histogram(values, num_bins, threads);
}

TEST_CASE("more than 2^32 values of one value: 64-bit bins and size_t indices", "[gpu]") {
  // One bin past 2^32 (a 32-bit merge loses the carry), and indices past 2^32 (a 32-bit index
  // wraps, or never ends). The values are set on the GPU, a byte pattern (257 times a byte), with a
  // stretch of random values copied in at a place drawn from the seed.
  const std::uint64_t seed = course::test::seed();
  const std::size_t n = (std::size_t{1} << 32) + 1 + drawn(seed, 30) % (1 << 20);
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < 2 * n + (std::size_t{1} << 30)) {
    WARN("not run: " << n << " 16-bit values do not fit in this GPU's free memory");
    return;
  }
  const unsigned num_bins = 4096;
  const auto byte = static_cast<unsigned char>(1 + drawn(seed, 31) % 15);
  const auto value = static_cast<std::uint16_t>(257 * byte);  // below 4096
  course::DeviceBuffer<std::uint16_t> d_values(n);
  d_values.fill_bytes(byte);
  const std::size_t noise = (std::size_t{1} << 20) - drawn(seed, 32) % 4096;
  const std::size_t at = drawn(seed, 33) % (n - noise);
  const auto random = course::random_ints<std::uint16_t>(noise, seed, 0, 65535);
  d_values.upload(random.data(), noise, at);
  std::vector<std::uint64_t> expected =
      lesson01::histogram_of_values(random.data(), noise, num_bins);
  expected[value] += n - noise;
  const int threads = 256 + static_cast<int>(drawn(seed, 34) % 769);
  INFO("n = " << n << ", mostly " << value << ": a bin past 2^32; " << threads
              << " threads per block");
  CHECK(course::test::mismatch(student_histogram(d_values.data(), n, num_bins, threads, expected,
                                                 Values{nullptr, value, &random, at}),
                               expected) == "");
}

TEST_CASE("timing: 2^28 values, 4096 bins, 256 threads per block", "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR in the lesson's
  // CMakeLists.txt). On the H100 the model answer's loop waits on its loads (one value a thread,
  // 16 warps an SM: about 1.5 ms for these 512 MiB); an answer in which one thread reads and counts
  // its block's values, or one block the grid's, takes several times as long.
  const std::size_t n = std::size_t{1} << 28;
  const unsigned num_bins = 4096;
  const auto values = course::random_ints<std::uint16_t>(n, course::test::seed(), 0, 4096 + 255);
  const course::DeviceBuffer<std::uint16_t> d_values(values);
  course::DeviceBuffer<unsigned long long> bins(num_bins);
  course::test::report_time(
      [&] { grading01::general_histogram(d_values.data(), n, num_bins, 256, bins.data()); });
  std::vector<unsigned long long> got = bins.download();
  REQUIRE(course::test::mismatch(std::vector<std::uint64_t>(got.begin(), got.end()),
                                 lesson01::histogram_of_values(values.data(), n, num_bins)) == "");
}
