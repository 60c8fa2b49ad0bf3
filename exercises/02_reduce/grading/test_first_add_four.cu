// Grades exercise 1 of lesson 02: first_add_kernel (first_add_four.cuh), for ints and floats, at
// every size, past 2^31 and 2^32 elements included; and a trace of the additions checks the
// technique: every block's sum holds each of its elements once, through four adds during the load
// and a tree, not a loop. Inputs and sizes come from the run's seed (printed at the start;
// COURSE_TEST_SEED repeats it).
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
  for (std::size_t n : sizes) {
    const std::vector<grading02::SumTrace> traces = grading02::first_add_trace(n);
    for (std::size_t b = 0; b < traces.size(); ++b) {
      const std::size_t first = b * grading02::kPerBlock;
      const std::size_t expected =
          n - first < grading02::kPerBlock ? n - first : grading02::kPerBlock;
      INFO("n = " << n << ", block " << b << ": its sum holds " << traces[b].elements
                  << " elements, expected " << expected << ", with " << traces[b].additions
                  << " additions on the longest path (at most " << kMostAdditions << ")");
      CHECK(traces[b].elements == expected);
      CHECK(traces[b].additions <= kMostAdditions);
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
