// Grades exercise 1 of lesson 01: the per-warp histogram (per_warp_histogram.cuh). The histogram
// must be exact at every size, on every input, run after run, with counts past 16 bits in one warp
// and in one block and past 32 bits in one bin; and a probe of its atomics checks the technique:
// every byte one shared-memory atomicAdd, no shared word added to by two warps of a block, every
// warp adding, global memory touched only by the merge, and what the shared adds added to each
// word, summed over the blocks, the histogram: kWarpsPerBlock rows of 256 counters whose bins add
// up to the byte counts. Inputs and sizes come from the run's seed (printed at the start;
// COURSE_TEST_SEED repeats it), so no size or input can be known in advance.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../../probes/atomic_checks.hpp"
#include "per_warp_histogram_harness.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace {

constexpr std::size_t kBins = 256;
constexpr std::size_t kWarp = 32;
constexpr std::size_t kThreads = 256;

// The harness's grid: its warps, and the bytes one step of the grid-stride loop reads.
std::size_t grid_warps() {
  return static_cast<std::size_t>(grading01::per_warp_histogram_blocks()) * kThreads / kWarp;
}
std::size_t grid_bytes() {
  return grid_warps() * kWarp;
}

// Where the tests look for the warps' histograms among the shared words: kWarpsPerBlock rows of
// kBins counters, a row every kBins to kBins + 32 words (counts[warp][bin], padded or not), or
// kBins columns of kWarpsPerBlock counters, one every kWarpsPerBlock to 2 x kWarpsPerBlock words
// (counts[bin][warp]). `base` is the first counter's word.
struct Layout {
  std::size_t base;
  std::size_t row;  // words from one warp's histogram to the next; 1 for columns
  std::size_t col;  // words from one bin's counters to the next; 1 for rows
};

// The bin a shared word counts under a layout, or kBins where the layout has no counter.
std::size_t bin_of(const Layout& layout, std::size_t word) {
  if (word < layout.base) return kBins;
  const std::size_t at = word - layout.base;
  const std::size_t warp = layout.col == 1 ? at / layout.row : at % layout.col;
  const std::size_t bin = layout.col == 1 ? at % layout.row : at / layout.col;
  return warp < grading01::kWarpsPerBlock && bin < kBins ? bin : kBins;
}

// Whether the shared adds' totals (per word, over the blocks) are the histogram under a layout:
// every word added to is a counter, and each bin's counters add up to its count.
bool totals_are_the_histogram(const std::vector<unsigned long long>& totals,
                              const std::vector<std::size_t>& added,
                              const std::vector<unsigned long long>& expected,
                              const Layout& layout) {
  std::vector<unsigned long long> sums(kBins, 0);
  for (std::size_t word : added) {
    const std::size_t bin = bin_of(layout, word);
    if (bin == kBins) return false;
    sums[bin] += totals[word];
  }
  return sums == expected;
}

// The layout above that makes the totals the histogram, if there is one. The first word added to
// is a counter of some warp and bin: each choice of them, for each spacing, fixes the base.
std::optional<Layout> histograms_found(const std::vector<unsigned long long>& totals,
                                       const std::vector<unsigned long long>& expected) {
  std::vector<std::size_t> added;
  for (std::size_t word = 0; word < totals.size(); ++word) {
    if (totals[word] != 0) added.push_back(word);
  }
  if (added.empty() || added.size() > grading01::kWarpsPerBlock * kBins) return std::nullopt;
  const std::size_t first = added.front();
  const std::size_t warps = grading01::kWarpsPerBlock;
  for (std::size_t warp = 0; warp < warps; ++warp) {
    for (std::size_t bin = 0; bin < kBins; ++bin) {
      for (std::size_t row = kBins; row <= kBins + 32; ++row) {
        const Layout layout{first - warp * row - bin, row, 1};
        if (warp * row + bin <= first && totals_are_the_histogram(totals, added, expected, layout))
          return layout;
      }
      for (std::size_t col = warps; col <= 2 * warps; ++col) {
        const Layout layout{first - bin * col - warp, 1, col};
        if (bin * col + warp <= first && totals_are_the_histogram(totals, added, expected, layout))
          return layout;
      }
    }
  }
  return std::nullopt;
}

// The word of a warp's counter of a bin, under a layout.
std::size_t word_of(const Layout& layout, std::size_t warp, std::size_t bin) {
  return layout.base + warp * layout.row + bin * layout.col;
}

// The bytes a run counted: in host memory, or (`host` null) n bytes all equal to `value`.
struct Bytes {
  const std::uint8_t* host;
  std::uint8_t value;
};

// Per thread of the grid, the two sums check_thread_words asks for, over the counters of the bytes
// the statement's grid-stride loop gives it (thread t of block b reads bytes b * kThreads + t +
// k * grid_bytes(), into its warp's histogram).
std::vector<unsigned long long> thread_word_sums(const Bytes& bytes, std::size_t n,
                                                 const Layout& layout) {
  const std::size_t stride = grid_bytes();
  grading::ThreadWordSums sums(stride);
  const auto word = [&](std::size_t thread, std::uint8_t byte) {
    return static_cast<unsigned long long>(word_of(layout, thread % kThreads / kWarp, byte));
  };
  if (bytes.host != nullptr) {
    sums.add_grid_stride(bytes.host, n, word);
  } else {
    for (std::size_t t = 0; t < stride; ++t)
      sums.add(t, word(t, bytes.value), static_cast<long long>(n / stride + (t < n % stride)));
  }
  return sums.sums();
}

// What the probe must see of any run over n bytes: every byte one shared-memory atomicAdd that
// adds something, global adds only to merge (one per bin and block at most), no thread adding
// more than its grid-stride share of the bytes (lane 0 counting its warp's) or merging more than
// one bin, no shared word
// added to by two warps of a block (each warp counts in words of its own), what the adds added
// to the shared words, over the blocks, the histogram, and each thread's adds those of the bytes
// it read: the counting is those adds, not something done beside them and replayed.
void check_technique(const grading::AtomicReport& report, std::size_t n,
                     const std::vector<unsigned long long>& expected, const Bytes& bytes) {
  grading::check_shared_adds(report, n, "the bytes", n, kBins);
  unsigned long long added = 0;
  for (unsigned long long total : report.word_totals)
    added += total;
  INFO("what the shared atomicAdd calls added, in all: " << added << "; the bytes: " << n
                                                         << " (each adds 1 to its byte's counter)");
  CHECK(added == n);
  INFO("the shared adds' totals per word, over the blocks, are the histogram in "
       << grading01::kWarpsPerBlock << " per-warp histograms of " << kBins << " counters ("
       << "counts[warp][bin], rows " << kBins << " to " << kBins + 32 << " words apart, or "
       << "counts[bin][warp]): each byte is counted by its add to its bin's counter in its warp's "
       << "histogram");
  const std::optional<Layout> layout = histograms_found(report.word_totals, expected);
  CHECK(layout.has_value());
  if (layout) grading::check_thread_words(report, thread_word_sums(bytes, n, *layout));
  unsigned shared_by_warps = 0;
  for (unsigned words : report.words_of_many_warps)
    shared_by_warps += words;
  INFO("one histogram per warp: shared words that two warps of one block added to: "
       << shared_by_warps << " (each warp counts in its own)");
  CHECK(shared_by_warps == 0);
  if (n >= grid_bytes()) {
    // Every lane of the grid has a byte or more: every warp adds to some shared word.
    std::size_t short_blocks = 0;
    for (unsigned warps : report.warps_that_added)
      short_blocks += warps != (1u << grading01::kWarpsPerBlock) - 1;
    INFO("blocks in which fewer than their "
         << grading01::kWarpsPerBlock << " warps added to a "
         << "histogram, though every lane had bytes to count: " << short_blocks
         << " (each warp counts its own bytes)");
    CHECK(short_blocks == 0);
  }
}

// The student's histogram of the n bytes at d_data (device memory), into a poisoned output with
// guard zones, checked against `expected`. The run is probed, and its technique checked: the run
// whose counts are checked is the one the probe saw, at every size and on every input, so no
// answer can add one way where the probe looks and another where it does not.
void check_student_histogram(const std::uint8_t* d_data, std::size_t n,
                             const std::vector<unsigned long long>& expected, const Bytes& bytes) {
  course::test::GuardedBuffer<unsigned long long> bins(kBins);
  bins.poison(0xEE);
  const grading::AtomicReport report = grading01::per_warp_histogram_probed(d_data, n, bins.data());
  const std::vector<unsigned long long> counts = bins.download();
  REQUIRE(bins.guards_intact());  // nothing written outside the 256 bins
  CHECK(course::test::mismatch(counts, expected) == "");
  check_technique(report, n, expected, bytes);
}

// The same for bytes on the device that the host can read back (a few hundred MiB at most).
void check_student_histogram(const std::uint8_t* d_data, std::size_t n,
                             const std::vector<unsigned long long>& expected) {
  std::vector<std::uint8_t> bytes(n);
  CUDA_CHECK(cudaMemcpy(bytes.data(), d_data, n, cudaMemcpyDeviceToHost));
  check_student_histogram(d_data, n, expected, Bytes{bytes.data(), 0});
}

std::vector<unsigned long long> expected_histogram(const std::vector<std::uint8_t>& data) {
  const lesson01::Histogram h = lesson01::histogram_cpu_loop(data.data(), data.size());
  return std::vector<unsigned long long>(h.begin(), h.end());
}

// The same for bytes on the host, placed `offset` bytes into their device buffer.
void check_student_histogram(const std::vector<std::uint8_t>& data,
                             const std::vector<unsigned long long>& expected,
                             std::size_t offset = 0) {
  course::DeviceBuffer<std::uint8_t> d_data(data.size() + offset + 1);
  d_data.upload(data.data(), data.size(), offset);
  check_student_histogram(d_data.data() + offset, data.size(), expected, Bytes{data.data(), 0});
}

// n bytes on the device, every one `value` but for a stretch of random ones at a drawn place (at
// most a MiB): what every warp counts is mostly one value. Returns the expected histogram.
std::vector<unsigned long long> mostly_one_value(std::uint8_t* d_data, std::size_t n,
                                                 std::uint8_t value, std::uint64_t seed) {
  CUDA_CHECK(cudaMemset(d_data, value, n));
  const std::size_t noise = std::min<std::size_t>(n / 4, (std::size_t{1} << 20) - seed % 4096);
  const std::size_t at = course::test::drawn(seed, 1) % (n - noise + 1);
  const std::vector<std::uint8_t> random = course::random_bytes(noise, seed);
  CUDA_CHECK(cudaMemcpy(d_data + at, random.data(), noise, cudaMemcpyHostToDevice));
  std::vector<unsigned long long> expected = expected_histogram(random);
  expected[value] += n - noise;
  return expected;
}

}  // namespace

TEST_CASE("the per-warp histogram counts every size exactly", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  // The edges of a warp, a block and the grid's stride (its loop's step), from the seed.
  const std::vector<std::size_t> sizes = course::test::drawn_sizes(
      seed, {1, 2, 31, 32, 33, 255, 256, 257, 4097, 1000003}, {kWarp, kThreads, grid_bytes()},
      std::size_t{4} << 20, 4, "per_warp_histogram n");
  for (const lesson01::Dist dist : lesson01::dists().all()) {
    for (std::size_t n : sizes) {
      const std::vector<std::uint8_t> data = lesson01::make_input(n, dist, seed + n);
      INFO(lesson01::dists().name(dist) << ", n = " << n);
      check_student_histogram(data, expected_histogram(data));
    }
  }
}

TEST_CASE("every byte is one shared-memory atomicAdd into its warp's own histogram", "[gpu]") {
  // All bytes equal: one bin is hit by everyone. One histogram per block puts every block's
  // atomics on one shared word; one per warp spreads them over kWarpsPerBlock words. Random bytes
  // too, so that an answer cannot keep its warps' histograms for the one input it was shown. On
  // both, no shared word may be added to by two warps of a block: each warp's histogram is its
  // own. The size, from 2^21 to 2^22 bytes, and the value come from the seed.
  const std::uint64_t seed = course::test::seed();
  const std::size_t n = (std::size_t{1} << 21) - 1 +
                        kWarp * (course::test::drawn(seed, 40) % 65536) +
                        course::test::drawn(seed, 41) % 3;
  for (const lesson01::Dist dist : {lesson01::Dist::same, lesson01::Dist::uniform}) {
    const std::vector<std::uint8_t> data = lesson01::make_input(n, dist, seed);
    const course::DeviceBuffer<std::uint8_t> d_data(data);
    course::test::GuardedBuffer<unsigned long long> bins(kBins);
    bins.poison(0xEE);
    const grading::AtomicReport report =
        grading01::per_warp_histogram_probed(d_data.data(), n, bins.data());
    INFO("n = " << n << ", " << lesson01::dists().name(dist));
    const std::vector<unsigned long long> expected = expected_histogram(data);
    REQUIRE(course::test::mismatch(bins.download(), expected) == "");

    check_technique(report, n, expected, Bytes{data.data(), 0});
    if (dist == lesson01::Dist::same) {
      unsigned fewest = ~0u;
      for (unsigned hit : report.shared_words_hit)
        fewest = hit < fewest ? hit : fewest;
      INFO("one histogram per warp: on all-equal bytes, each block adds to one word in each of "
           << "its " << grading01::kWarpsPerBlock << " warps' histograms; the fewest shared words "
           << "a block added to: " << fewest);
      CHECK(fewest >= static_cast<unsigned>(grading01::kWarpsPerBlock));
    }
  }
}

TEST_CASE("the per-warp histogram is exact on a large input, run after run", "[gpu]") {
  // Many blocks merge at once: a missing barrier or a non-atomic merge loses counts, and not
  // always the same ones. The size and the misalignments come from the seed.
  const std::uint64_t seed = course::test::seed();
  const std::size_t n = (std::size_t{24} << 20) + course::test::drawn(seed, 7) % (1 << 20);
  const std::vector<std::uint8_t> data = lesson01::make_input(n, lesson01::Dist::skewed, seed);
  const std::vector<unsigned long long> expected = expected_histogram(data);
  for (int run = 0; run < 4; ++run) {
    const std::size_t offset = course::test::drawn(seed, 8 + run) % 16;
    INFO("run " << run << ", n = " << n << ", " << offset << " bytes into the buffer");
    check_student_histogram(data, expected, offset);
  }
}

TEST_CASE("counts past 65,535 of one value, in one block and in one warp", "[gpu]") {
  // 16-bit counters (two to a word, or a 16-bit total in the merge) wrap past 65,535. First every
  // block counts more than that of one value while each of its warps counts fewer; then every warp
  // counts more. Which value, the sizes and where the noise sits come from the seed. (The noise, a
  // MiB at most, takes fewer than 17 of each warp's 32-byte steps.)
  const std::uint64_t seed = course::test::seed();
  const std::size_t warps = grid_warps();
  struct Case {
    const char* what;
    std::size_t chunks;  // 32-byte steps of each warp: 8 x 32 x 273 bytes pass 65,535 per block
  } cases[] = {{"every block counts more than 65,535 bytes of one value, every warp fewer",
                290 + course::test::drawn(seed, 20) % 1600},
               {"every warp counts more than 65,535 bytes of one value",
                2080 + course::test::drawn(seed, 21) % 256}};
  for (const Case& c : cases) {
    const std::size_t n = warps * kWarp * c.chunks + course::test::drawn(seed, 22) % grid_bytes();
    const auto value = static_cast<std::uint8_t>(course::test::drawn(seed, 23));
    course::DeviceBuffer<std::uint8_t> d_data(n);
    const std::vector<unsigned long long> expected =
        mostly_one_value(d_data.data(), n, value, seed + c.chunks);
    INFO(c.what << " (n = " << n << ", the value " << +value << ")");
    check_student_histogram(d_data.data(), n, expected);
  }
}

TEST_CASE("more than 2^32 bytes of one value: 64-bit bins and size_t indices", "[gpu]") {
  // One bin past 2^32 (a 32-bit merge loses the carry), and indices past 2^32 (a 32-bit index
  // wraps, or never ends). The bytes are set on the GPU: no copy from the host.
  const std::uint64_t seed = course::test::seed();
  const std::size_t n = (std::size_t{1} << 32) + 1 + course::test::drawn(seed, 30) % (1 << 20);
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < n + (std::size_t{1} << 30)) {
    WARN("not run: " << n << " bytes do not fit in this GPU's free memory");
    return;
  }
  const auto value = static_cast<std::uint8_t>(course::test::drawn(seed, 31));
  course::DeviceBuffer<std::uint8_t> d_data(n);
  CUDA_CHECK(cudaMemset(d_data.data(), value, n));
  std::vector<unsigned long long> expected(kBins, 0);
  expected[value] = n;
  INFO("n = " << n << " bytes, all " << +value << ": a bin past 2^32");
  check_student_histogram(d_data.data(), n, expected, Bytes{nullptr, value});
}

TEST_CASE("timing: 256 MiB of random bytes", "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR in the lesson's
  // CMakeLists.txt). On the H100 the model answer's loop waits on its loads (one byte a lane,
  // 16 warps an SM: about 1.5 ms here, as v1 takes); an answer in which one thread reads and
  // counts its block's bytes, or one block the grid's, takes several times as long. Counting in
  // one histogram per block is not slower there: the probe above sees that, not the clock.
  const std::size_t n = std::size_t{256} << 20;
  const std::vector<std::uint8_t> data =
      lesson01::make_input(n, lesson01::Dist::uniform, course::test::seed());
  const course::DeviceBuffer<std::uint8_t> d_data(data);
  course::DeviceBuffer<unsigned long long> bins(kBins);
  course::test::report_time([&] { grading01::per_warp_histogram(d_data.data(), n, bins.data()); });
  REQUIRE(course::test::mismatch(bins.download(), expected_histogram(data)) == "");
}
