// Grades exercise 3 of lesson 02: block_reduce (any_operator.cuh), for any operator and any number
// of threads per block, through the largest and the smallest element of ints, floats and 64-bit
// unsigned ints, with extremes; and a traced reduction, on each of those types, checks the
// technique: every thread gets a result that holds each thread's value once, through a tree of
// shuffles (at most 5 steps in a warp and 5 over the warps) that every warp makes, one cut short
// by the block's end too, with masks that name only lanes that exist; and every kernel that calls
// it has shared memory for one value per warp and the result, no more. Inputs and block sizes come
// from the run's seed (printed at the start; COURSE_TEST_SEED repeats it).
#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <vector>

#include "any_operator_harness.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace {

using course::test::drawn;

// Every block size's edges: whole warps, one lane past them, one short of them, from the seed.
std::vector<std::size_t> block_sizes(std::uint64_t seed) {
  return course::test::drawn_sizes(seed, {1, 7, 32, 33, 100, 256, 1000, 1024}, {32}, 1024, 4,
                                   "any_operator threads per block");
}

template <typename T>
void check_max_min(const std::vector<T>& x, const std::vector<std::size_t>& sizes,
                   const char* what) {
  const course::DeviceBuffer<T> d_x(x);
  for (const std::size_t threads : sizes) {
    INFO(what << ", n = " << x.size() << ", " << threads << " threads per block");
    CHECK(grading02::reduce_max(d_x.data(), x.size(), static_cast<int>(threads)) ==
          *std::max_element(x.begin(), x.end()));
    CHECK(grading02::reduce_min(d_x.data(), x.size(), static_cast<int>(threads)) ==
          *std::min_element(x.begin(), x.end()));
  }
}

}  // namespace

TEST_CASE("max and min of random ints, floats and 64-bit ints, at every size", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  const std::vector<std::size_t> threads = block_sizes(seed);
  const std::vector<std::size_t> sizes = course::test::drawn_sizes(
      seed + 1, {1, 2, 31, 33, 257, 100003}, {32, 1024}, 500000, 2, "any_operator n");
  for (const std::size_t n : sizes) {
    check_max_min(course::random_ints<int>(n, seed + n, -1000000, 1000000), threads, "ints");
    check_max_min(lesson02::make_input<float>(n, lesson02::Dist::uniform, seed + n), threads,
                  "floats");
    check_max_min(course::random_ints<unsigned long long>(n, seed + n, 0, ~0ull), threads,
                  "64-bit unsigned ints");
  }
}

TEST_CASE("max and min with extremes, negative numbers only, and all equal", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  const std::vector<std::size_t> threads = block_sizes(seed);
  std::vector<int> extremes = course::random_ints<int>(100003, seed, -5, 5);
  extremes[seed % extremes.size()] = INT_MAX;
  extremes[(seed / 7) % extremes.size()] = INT_MIN;
  check_max_min(extremes, threads, "ints with INT_MIN and INT_MAX");
  check_max_min(course::random_ints<int>(70001, seed, INT_MIN, -1), threads, "negative ints only");
  check_max_min(std::vector<int>(5000, -3 - static_cast<int>(seed % 1000)), threads, "all equal");
  std::vector<float> infinite = lesson02::make_input<float>(9999, lesson02::Dist::uniform, seed);
  infinite[seed % infinite.size()] = std::numeric_limits<float>::infinity();
  infinite[(seed / 3) % infinite.size()] = -std::numeric_limits<float>::infinity();
  check_max_min(infinite, threads, "floats with -inf and +inf");
  std::vector<float> negative = lesson02::make_input<float>(4097, lesson02::Dist::uniform, seed);
  for (float& v : negative)
    v = -std::fabs(v) - 1.0f;
  check_max_min(negative, threads, "negative floats only");
  // 64-bit values past 2^63 and around 2^32, with 0 and the largest: a 32-bit or signed step on
  // the way gets them wrong.
  std::vector<unsigned long long> wide =
      course::random_ints<unsigned long long>(20011, seed, 1ull << 31, (1ull << 33));
  wide[seed % wide.size()] = ~0ull;
  wide[(seed / 5) % wide.size()] = 0;
  wide[(seed / 11) % wide.size()] = (1ull << 63) + drawn(seed, 70) % 1000;
  check_max_min(wide, threads, "64-bit unsigned ints with 0, 2^64 - 1 and past 2^63");
}

TEST_CASE("every thread's result holds each value once, through a tree of shuffles", "[gpu]") {
  // On every type the exercise names, so that no type goes untraced.
  constexpr unsigned kMostSteps = 5 + 5;  // log2(32) in the warps, log2(32) over the warps
  const std::vector<std::size_t> sizes = block_sizes(course::test::seed());
  for (const grading02::Traced traced :
       {grading02::Traced::int32, grading02::Traced::float32, grading02::Traced::uint64}) {
    for (const std::size_t threads : sizes) {
      const grading02::ReduceTrace trace =
          grading02::trace_block_reduce(traced, static_cast<int>(threads));
      for (std::size_t i = 0; i < trace.values.size(); ++i) {
        if (trace.values[i] == threads && trace.steps[i] <= kMostSteps) continue;
        INFO(grading02::traced_name(traced)
             << ", " << threads << " threads per block: thread " << i % threads << " of block "
             << i / threads << " got a result that holds " << trace.values[i] << " values, "
             << "through " << trace.steps[i] << " combining steps on its longest path (at most "
             << kMostSteps << ")");
        REQUIRE(trace.values[i] == static_cast<unsigned>(threads));
        REQUIRE(trace.steps[i] <= kMostSteps);
      }
    }
  }
}

TEST_CASE("every warp shuffles, a warp cut short too, naming only the lanes that exist", "[gpu]") {
  // The trace counts the steps, not where they are made: a warp cut short could combine its
  // values in shared memory and pass it. So the shuffles are counted too, per thread: in a warp of
  // k lanes (k >= 2), every lane shuffles, and one of them at least log2(k) times (rounded up), as
  // a tree of shuffles over k lanes needs; and no shuffle's mask names a lane past the end of the
  // block, or leaves out the lane that makes it. On every type the exercise names.
  const std::vector<std::size_t> sizes = block_sizes(course::test::seed());
  for (const grading02::Traced traced :
       {grading02::Traced::int32, grading02::Traced::float32, grading02::Traced::uint64}) {
    for (const std::size_t threads : sizes) {
      const grading02::ReduceTrace trace =
          grading02::trace_block_reduce(traced, static_cast<int>(threads));
      for (std::size_t b = 0; b < static_cast<std::size_t>(trace.blocks); ++b) {
        for (std::size_t first = 0; first < threads; first += 32) {
          const std::size_t lanes = std::min<std::size_t>(32, threads - first);
          unsigned least = 0;
          for (std::size_t k = 1; k < lanes; k *= 2)
            ++least;
          const auto warp =
              trace.shuffles.begin() + static_cast<std::ptrdiff_t>(b * threads + first);
          const unsigned most = *std::max_element(warp, warp + lanes);
          const unsigned fewest = *std::min_element(warp, warp + lanes);
          if (most >= least && (lanes == 1 || fewest > 0)) continue;
          INFO("a tree of shuffles over "
               << lanes << " lanes takes at least " << least
               << " in one lane, and every lane takes part; " << grading02::traced_name(traced)
               << ", " << threads << " threads per block: in block " << b << ", the warp "
               << "of threads " << first << " to " << first + lanes - 1 << " made " << fewest
               << " to " << most << " shuffles a lane");
          CHECK(most >= least);
          CHECK((lanes == 1 || fewest > 0));
        }
      }
      for (std::size_t i = 0; i < trace.stray_masks.size(); ++i) {
        if (trace.stray_masks[i] == 0) continue;
        INFO(grading02::traced_name(traced)
             << ", " << threads << " threads per block: thread " << i % threads << " of block "
             << i / threads << " made " << trace.stray_masks[i] << " shuffles whose mask names a "
             << "lane past the block's end or leaves out its own lane");
        REQUIRE(trace.stray_masks[i] == 0);
      }
    }
  }
}

TEST_CASE("every kernel has shared memory for one value per warp and the result, no more",
          "[gpu]") {
  // A shared array of the block's values is a tree (or a loop) in shared memory, not the shuffles
  // the exercise asks for: each instance of block_reduce, for each type and operator, is checked.
  for (const grading02::KernelShared& k : grading02::shared_memory_of_every_kernel()) {
    const std::size_t most = (32 + 2) * k.value_bytes;
    INFO(k.kernel << ": " << k.shared_bytes << " bytes of shared memory; one value per warp and "
                  << "the result need at most " << most);
    CHECK(k.shared_bytes <= most);
  }
}

TEST_CASE("timing: 8,192 block maxima in a row, blocks of 1,000", "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR in the lesson's
  // CMakeLists.txt). Every thread of a full GPU calls block_reduce 8,192 times for the largest int,
  // in blocks of 1,000 (a last warp of 8 lanes): the model answer's two shuffle trees and three
  // barriers a call take some hundreds of cycles; an answer in which the warps take turns, one
  // barrier each, for operators the trace does not use, takes several times as long.
  const std::uint64_t seed = course::test::seed();
  const int blocks = grading02::repeated_blocks();
  const int threads = grading02::kRepeatThreads;
  const std::size_t count = static_cast<std::size_t>(blocks) * threads;
  const std::vector<int> values = course::random_ints<int>(count, seed, -1000000, 1000000);
  const course::DeviceBuffer<int> d_values(values);
  course::DeviceBuffer<unsigned> out(count);
  course::test::report_time([&] { grading02::repeated_max(d_values.data(), out.data()); });
  const std::vector<unsigned> got = out.download();
  for (int b = 0; b < blocks; ++b) {
    const int largest =
        *std::max_element(values.begin() + static_cast<std::ptrdiff_t>(b) * threads,
                          values.begin() + static_cast<std::ptrdiff_t>(b + 1) * threads);
    unsigned expected = 0;
    for (int r = 0; r < grading02::kRepeatRounds; ++r)
      expected = expected * 31u + static_cast<unsigned>(largest + (r & 7));
    for (int t = 0; t < threads; ++t) {
      INFO("block " << b << ", thread " << t << ": what its 8,192 results add up to");
      REQUIRE(got[static_cast<std::size_t>(b) * threads + t] == expected);
    }
  }
}
