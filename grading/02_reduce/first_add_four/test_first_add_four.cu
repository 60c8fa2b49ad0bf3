// Grades exercise 1 of lesson 02: first_add_kernel (first_add_four.cuh), for ints and floats, at
// every size, past 2^31 and 2^32 elements included; and a trace of the additions checks the
// technique: every block's sum holds each of its elements once, through four adds during the load
// and a tree, not a loop; and floats of very different sizes must add up to the tree's sum bit for
// bit, for ints' and floats' kernels are not traced. Inputs and sizes come from the run's seed
// (printed at the start; COURSE_TEST_SEED repeats it).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "first_add_four_harness.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace {

using course::test::drawn;

template <typename T>
T student_sum(const T* d_x, std::size_t n) {
  course::test::GuardedBuffer<T> result(1);
  result.poison(0xFF);
  grading02::first_add_sum(d_x, n, result.data());
  const T got = result.download()[0];
  REQUIRE(result.guards_intact());
  return got;
}

template <typename T>
T student_sum(const std::vector<T>& x) {
  const course::DeviceBuffer<T> d_x(x);
  return student_sum(d_x.data(), x.size());
}

// The input lesson02::make_input gives, made on the GPU (for inputs too large to copy).
template <typename T>
__global__ void fill_kernel(T* x, std::size_t n, std::uint64_t seed, lesson02::Dist dist) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    x[i] = lesson02::element<T>(seed, i, dist);
  }
}

template <typename T>
void fill(course::DeviceBuffer<T>& x, std::uint64_t seed, lesson02::Dist dist) {
  fill_kernel<<<1024, 256>>>(x.data(), x.size(), seed, dist);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

// Floats of very different sizes, so that the order of the additions shows in the bits.
std::vector<float> spread(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> mantissa(1, 2);
  std::uniform_int_distribution<int> exponent(-20, 20);
  std::vector<float> v(n);
  for (float& x : v)
    x = std::ldexp(mantissa(rng), exponent(rng)) * (rng() % 2 ? 1 : -1);
  return v;
}

// The sum in the exercise's order, on the CPU, pass after pass as the harness runs them: in each
// block, thread t adds its elements t, t + 256, t + 512, t + 768 (those before n) to 0, in that
// order; then the sequential-addressing tree, cache[t] += cache[t + s] for s = 128, 64, ..., 1.
float exercise_order_sum(std::vector<float> x) {
  constexpr std::size_t kThreads = grading02::kPerBlock / 4;
  do {
    const std::size_t blocks = (x.size() + grading02::kPerBlock - 1) / grading02::kPerBlock;
    std::vector<float> sums(blocks);
    for (std::size_t b = 0; b < blocks; ++b) {
      std::vector<float> cache(kThreads);
      for (std::size_t t = 0; t < kThreads; ++t) {
        float sum = 0.0f;
        for (std::size_t j = 0; j < 4; ++j) {
          const std::size_t i = b * grading02::kPerBlock + j * kThreads + t;
          if (i < x.size()) sum += x[i];
        }
        cache[t] = sum;
      }
      for (std::size_t s = kThreads / 2; s > 0; s /= 2) {
        for (std::size_t t = 0; t < s; ++t)
          cache[t] += cache[t + s];
      }
      sums[b] = cache[0];
    }
    x = sums;
  } while (x.size() > 1);
  return x[0];
}

bool same_bits(float a, float b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace

TEST_CASE("four adds during the load sum ints exactly, at every size", "[gpu]") {
  // The edges of a block (1,024 elements) and of a second pass (1,024 blocks), from the seed.
  const std::uint64_t seed = course::test::seed();
  const std::vector<std::size_t> sizes = course::test::drawn_sizes(
      seed, {1, 2, 255, 256, 257, 513, 1000, 1023, 1024, 1025, 4097, 1000003},
      {256, grading02::kPerBlock, grading02::kPerBlock * grading02::kPerBlock}, 4000000, 4,
      "first_add_four n");
  for (std::size_t n : sizes) {
    const auto x = lesson02::make_input<int>(n, lesson02::Dist::uniform, seed + n);
    INFO("the sum of n = " << n << " ints");
    CHECK(student_sum(x) == lesson02::reference_sum(x.data(), n));
  }
}

TEST_CASE("each block adds its elements once, four during the load, then a tree", "[gpu]") {
  // 4 adds during the load, then log2(256) = 8 steps of the tree: 12 on the longest path. A loop
  // over the block's elements, or over the threads' sums, takes hundreds.
  constexpr unsigned kMostAdditions = 4 + 8;
  const std::vector<std::size_t> sizes =
      course::test::drawn_sizes(course::test::seed() + 1, {1, 1000, 50 * 1024 + 3},
                                {256, grading02::kPerBlock}, 100000, 2, "first_add_four traced n");
  // Each thread makes its own additions: in a full block, every thread adds its four elements
  // (three additions at least) and at most the tree's eight steps more. One warp making the whole
  // block's additions, in the tree's order, gives the same sums and the same paths.
  constexpr unsigned kFewestByAThread = 3;
  constexpr unsigned kMostByAThread = 4 + 8;
  const std::size_t threads = grading02::kPerBlock / 4;
  for (std::size_t n : sizes) {
    std::vector<unsigned> by_thread;
    const std::vector<grading02::SumTrace> traces = grading02::first_add_trace(n, &by_thread);
    for (std::size_t b = 0; b < traces.size(); ++b) {
      const std::size_t first = b * grading02::kPerBlock;
      const std::size_t expected =
          n - first < grading02::kPerBlock ? n - first : grading02::kPerBlock;
      INFO("n = " << n << ", block " << b << ": its sum holds " << traces[b].elements
                  << " elements, expected " << expected << ", with " << traces[b].additions
                  << " additions on the longest path (at most " << kMostAdditions << ")");
      CHECK(traces[b].elements == expected);
      CHECK(traces[b].additions <= kMostAdditions);
      if (expected < grading02::kPerBlock) continue;
      const auto mine = by_thread.begin() + static_cast<std::ptrdiff_t>(b * threads);
      const auto [fewest, most] = std::minmax_element(mine, mine + threads);
      INFO("n = " << n << ", block " << b << ": the fewest additions a thread made: " << *fewest
                  << " (thread " << fewest - mine << "), the most: " << *most << " (thread "
                  << most - mine << "); each thread adds its own four elements ("
                  << kFewestByAThread << " or more) and its steps of the tree (" << kMostByAThread
                  << " in all at most)");
      CHECK(*fewest >= kFewestByAThread);
      CHECK(*most <= kMostByAThread);
    }
  }
}

TEST_CASE("four adds during the load sum whole-number floats exactly", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  const std::size_t sizes[] = {1, 1023, (std::size_t{1} << 24) + 1 + drawn(seed, 10) % 4096,
                               grading02::kPerBlock * (1 + drawn(seed, 11) % 5000) - 1};
  for (std::size_t n : sizes) {
    const auto x = lesson02::make_input<float>(n, lesson02::Dist::integers, seed + n);
    INFO("the sum of n = " << n << " floats");
    CHECK(static_cast<double>(student_sum(x)) == lesson02::reference_sum(x.data(), n));
  }
}

TEST_CASE("float sums add up in the tree's order, bit for bit", "[gpu]") {
  // The trace above sees the tree only on its own type; on ints and whole-number floats any order
  // gives the same sum. Floats of very different sizes do not: every addition rounds, and the sum
  // is the tree's bit for bit only if the additions were the tree's, in its order, for floats too.
  // Only the first of each thread's four elements is not zero (x + 0 is x in any order, so the
  // order of the four adds does not matter; the tree's does), and at most 256 blocks make the
  // second pass one block whose sums are all first elements.
  const std::uint64_t seed = course::test::seed();
  const std::vector<std::size_t> sizes = course::test::drawn_sizes(
      seed + 2, {1, 2, 255, 256, 1000, 1024, 1025, 5000}, {256, grading02::kPerBlock},
      256 * grading02::kPerBlock, 4, "first_add_four float n");
  for (std::size_t n : sizes) {
    std::vector<float> x = spread(n, seed + n);
    for (std::size_t i = 0; i < n; ++i) {
      if (i % grading02::kPerBlock >= grading02::kPerBlock / 4) x[i] = 0.0f;
    }
    const float got = student_sum(x);
    const float expected = exercise_order_sum(x);
    INFO("the sum of n = " << n << " floats of very different sizes: got " << got
                           << ", the tree's order gives " << expected
                           << ": the bits differ (a loop, or another order, adds up differently)");
    CHECK(same_bits(got, expected));
  }
}

TEST_CASE("past 2^31 and 2^32 elements: size_t indices", "[gpu]") {
  // An int index goes negative past 2^31 elements, an unsigned one (Harris's) wraps past 2^32, and
  // either drops or repeats elements. The input is made on the GPU, its sum on the CPU.
  const std::uint64_t seed = course::test::seed();
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  std::size_t n = (std::size_t{1} << 32) + 1 + drawn(seed, 20) % (1 << 20);
  const char* what = "elements past 2^32";
  if (free_bytes < n * sizeof(int) + (std::size_t{1} << 30)) {
    n = (std::size_t{1} << 31) + 1 + drawn(seed, 20) % (1 << 20);
    what = "elements past 2^31 (too few bytes free for 2^32)";
  }
  if (free_bytes < n * sizeof(int) + (std::size_t{1} << 30)) {
    WARN("not run: " << n << " ints do not fit in this GPU's free memory");
    return;
  }
  course::DeviceBuffer<int> x(n);
  fill(x, seed, lesson02::Dist::uniform);
  INFO("the sum of n = " << n << " ints, " << what);
  CHECK(student_sum(x.data(), n) ==
        lesson02::reference_sum_of<int>(n, lesson02::Dist::uniform, seed));
}

TEST_CASE("timing: the sum of 2^30 ints", "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR in the lesson's
  // CMakeLists.txt). 4 GiB: the model answer reads them at about the GPU's memory bandwidth, some
  // 1.5 ms on the H100, every thread with four loads in flight; an answer in which one thread of
  // each block loads the block's 1,024 elements, for ints and floats only, where the trace above
  // cannot see, takes many times as long.
  const std::uint64_t seed = course::test::seed();
  const std::size_t n = std::size_t{1} << 30;
  course::DeviceBuffer<int> x(n);
  fill(x, seed, lesson02::Dist::uniform);
  course::DeviceBuffer<int> result(1);
  course::test::report_time([&] { grading02::first_add_sum(x.data(), n, result.data()); });
  REQUIRE(result.download()[0] ==
          lesson02::reference_sum_of<int>(n, lesson02::Dist::uniform, seed));
}
