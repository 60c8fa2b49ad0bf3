// Grades exercise 2 of lesson 03: chunk_dots and add_partials (deterministic_dot.cuh). The result
// must be exact on whole numbers at awkward sizes and within the error bound on uniform floats; it
// must have the same bits whatever the grid and on every run; and each partial sum must be its own
// chunk's, which checks the technique, at small sizes, at sizes the clock might time and in the
// last timed run. The sizes and grids are drawn from the seed (printed;
// COURSE_TEST_SEED repeats it), at warp, block and chunk edges, and one size is past 2^31 elements,
// where a 32-bit index wraps; the result and the partial sums are poisoned first and have guard
// zones around them.
#include <algorithm>
#include <vector>

#include "bits.hpp"
#include "deterministic_dot_harness.hpp"
#include "kernels.cuh"  // lesson 03: the inputs on the GPU
#include "launch.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace {

struct Result {
  float dot;
  std::vector<float> partials;
};

// The student's dot product with `blocks` blocks, into a poisoned result and partial sums.
Result student_dot(const float* d_a, const float* d_b, std::size_t n, int blocks,
                   unsigned char poison = 0xFF) {
  course::test::GuardedBuffer<float> result(1);
  course::test::GuardedBuffer<float> partials(grading03::chunks_for(n));
  result.poison(poison);
  partials.poison(poison);
  grading03::chunked_dot(d_a, d_b, n, blocks, partials.data(), result.data());
  REQUIRE(result.guards_intact());
  REQUIRE(partials.guards_intact());
  return {result.download()[0], partials.download()};
}

Result student_dot(const lesson03::DeviceInputs& d, std::size_t n, int blocks,
                   unsigned char poison = 0xFF) {
  return student_dot(d.a.data(), d.b.data(), n, blocks, poison);
}

// The bound for this exercise's shape: 16 products per thread in a chunk, a block's tree, then the
// partials, ceil(chunks / 256) per thread, and a tree again.
double bound_for(std::size_t n, double magnitudes) {
  const std::size_t chunks = grading03::chunks_for(n);
  return lesson03::dot_error_bound(n, magnitudes, {chunks * 256, (chunks + 255) / 256 + 10}, false);
}

// A grid from the seed: 1 block to 8 per SM.
int drawn_grid(std::uint64_t stream) {
  const auto most = static_cast<std::uint64_t>(8 * course::sm_count());
  return 1 + static_cast<int>(course::test::drawn(course::test::seed(), stream) % most);
}

// ---- inputs too large to copy, made on the GPU -------------------------------------------------

// Whole numbers in [-4, 4], element i of a and b as lesson03::make_inputs makes them.
__global__ void fill_integers(float* a, float* b, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    a[i] = lesson03::element(seed, i, 0, lesson03::Dist::integers);
    b[i] = lesson03::element(seed, i, 1, lesson03::Dist::integers);
  }
}

// Each chunk's dot product and sum of |products|, exact: whole-number products added as 64-bit
// integers (the order does not matter).
__global__ void exact_chunk_dots(const float* a, const float* b, std::size_t n, long long* dots,
                                 long long* magnitudes) {
  __shared__ unsigned long long dot;
  __shared__ unsigned long long magnitude;
  const std::size_t chunks = (n + grading03::kChunk - 1) / grading03::kChunk;
  for (std::size_t c = blockIdx.x; c < chunks; c += gridDim.x) {
    if (threadIdx.x == 0) dot = magnitude = 0;
    __syncthreads();
    const std::size_t end = (c + 1) * grading03::kChunk < n ? (c + 1) * grading03::kChunk : n;
    long long d = 0;
    long long m = 0;
    for (std::size_t i = c * grading03::kChunk + threadIdx.x; i < end; i += blockDim.x) {
      const long long p = static_cast<long long>(a[i]) * static_cast<long long>(b[i]);
      d += p;
      m += p < 0 ? -p : p;
    }
    atomicAdd(&dot, static_cast<unsigned long long>(d));
    atomicAdd(&magnitude, static_cast<unsigned long long>(m));
    __syncthreads();
    if (threadIdx.x == 0) {
      dots[c] = static_cast<long long>(dot);
      magnitudes[c] = static_cast<long long>(magnitude);
    }
    __syncthreads();
  }
}

// n whole-number elements of a and b on the GPU, and each chunk's exact dot product.
struct GpuIntegers {
  course::DeviceBuffer<float> a;
  course::DeviceBuffer<float> b;
  std::vector<long long> chunk_dots;
  double dot = 0;
  double magnitudes = 0;

  GpuIntegers(std::size_t n, std::uint64_t seed) : a(n), b(n) {
    const int blocks = 8 * course::sm_count();
    fill_integers<<<blocks, 256>>>(a.data(), b.data(), n, seed);
    CUDA_CHECK(cudaGetLastError());
    course::DeviceBuffer<long long> dots(grading03::chunks_for(n));
    course::DeviceBuffer<long long> mags(grading03::chunks_for(n));
    exact_chunk_dots<<<blocks, 256>>>(a.data(), b.data(), n, dots.data(), mags.data());
    CUDA_CHECK(cudaGetLastError());
    chunk_dots = dots.download();
    long long total = 0;
    long long total_magnitude = 0;
    for (long long d : chunk_dots)
      total += d;
    for (long long m : mags.download())
      total_magnitude += m;
    dot = static_cast<double>(total);
    magnitudes = static_cast<double>(total_magnitude);
  }
};

// Chunk c's dot product on the CPU, from the same formula: a check of the GPU's.
long long cpu_chunk_dot(std::size_t n, std::size_t c, std::uint64_t seed) {
  long long sum = 0;
  const std::size_t end = std::min(n, (c + 1) * grading03::kChunk);
  for (std::size_t i = c * grading03::kChunk; i < end; ++i) {
    sum += static_cast<long long>(lesson03::element(seed, i, 0, lesson03::Dist::integers)) *
           static_cast<long long>(lesson03::element(seed, i, 1, lesson03::Dist::integers));
  }
  return sum;
}

// The partial sums of n = 2^bits + (up to 2^20) whole numbers, made on the GPU, where a 32-bit
// index wraps: at 2^31 an int's, at 2^32 an unsigned int's. Each chunk's sum is a whole number
// below 2^16 in size, exact in a float whatever the order, so every partial sum must be exact. Not
// run, with a warning, on a GPU without the memory free (2 n floats and 1 GiB).
void check_past(int bits, std::uint64_t stream, const char* what) {
  const std::uint64_t seed = course::test::seed();
  const std::size_t wrap = std::size_t{1} << bits;
  const std::size_t n =
      wrap + course::test::drawn_sizes(seed + stream, {}, {32, 256, grading03::kChunk},
                                       std::size_t{1} << 20, 1, what)[0];
  const std::size_t needed = 2 * n * sizeof(float) + (std::size_t{1} << 30);
  const course::test::LargeGpuMemory memory(needed);
  if (!memory.ok()) {
    WARN("not run: needs " << needed / (1 << 20) << " MiB of GPU memory free, the GPU has "
                           << memory.free_mib());
    return;
  }
  const GpuIntegers in(n, seed);
  // The GPU's reference against the CPU's, at the first chunk, around the wrap and last.
  const std::size_t edge = wrap / grading03::kChunk;
  const std::size_t last = in.chunk_dots.size() - 1;
  for (std::size_t c : {std::size_t{0}, edge - 1, edge, std::min(edge + 1, last), last})
    REQUIRE(in.chunk_dots[c] == cpu_chunk_dot(n, c, seed));

  const int blocks = 8 * course::sm_count();
  const Result got = student_dot(in.a.data(), in.b.data(), n, blocks);
  std::size_t wrong = 0;
  std::size_t first_wrong = 0;
  for (std::size_t c = got.partials.size(); c-- > 0;) {
    if (static_cast<double>(got.partials[c]) != static_cast<double>(in.chunk_dots[c])) {
      ++wrong;
      first_wrong = c;
    }
  }
  INFO("n = " << n << ", " << blocks << " blocks: " << wrong << " of " << got.partials.size()
              << " partial sums wrong, the first chunk " << first_wrong << " (element "
              << first_wrong * grading03::kChunk << "): got " << got.partials[first_wrong]
              << ", expected " << in.chunk_dots[first_wrong]
              << " (an index or a chunk's start in 32 bits wraps at 2^" << bits << ")");
  CHECK(wrong == 0);
  const double bound = bound_for(n, in.magnitudes);
  INFO("n = " << n << ": got " << got.dot << ", expected " << in.dot << " within " << bound);
  CHECK(lesson03::dot_ok(got.dot, in.dot, bound));
}

}  // namespace

TEST_CASE("the chunked dot product is exact on whole numbers, at every size", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  const int sms = course::sm_count();
  // Below 2.5 million whole numbers in [-4, 4], the sum of |a[i] b[i]| stays under 2^24: every
  // partial sum, in any order, is a whole number a float holds exactly.
  const std::vector<std::size_t> sizes = course::test::drawn_sizes(
      seed, {1, 2, 31, 33, 255, 257, 4095, 4096, 4097, 8191, 8193, 1000003},
      {32, 256, grading03::kChunk, 256 * grading03::kChunk}, 2500000, 4, "whole numbers");
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const std::size_t n = sizes[k];
    // Grids of every kind: the GPU's, one block, more blocks than chunks, and one drawn.
    const int grids[] = {sms, 1, 5000, drawn_grid(100 + k)};
    const int blocks = grids[k % 4];
    const lesson03::Inputs in = lesson03::make_inputs(n, lesson03::Dist::integers, seed + n);
    const lesson03::Reference ref = lesson03::reference_dot(in.a.data(), in.b.data(), n);
    REQUIRE(ref.magnitudes < 16777216.0);
    const lesson03::DeviceInputs d(in);
    INFO("the dot product of n = " << n << " whole numbers, " << blocks << " blocks");
    CHECK(static_cast<double>(student_dot(d, n, blocks).dot) == ref.dot);
  }
}

TEST_CASE("each partial sum is its own chunk's, and the result is accurate", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  const std::vector<std::size_t> sizes =
      course::test::drawn_sizes(seed + 1, {4097}, {grading03::kChunk, 256 * grading03::kChunk},
                                std::size_t{1} << 24, 2, "uniform floats, partial sums checked");
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const std::size_t n = sizes[k];
    const int blocks = k == 0 ? course::sm_count() : drawn_grid(200 + k);
    const lesson03::Inputs in = lesson03::make_inputs(n, lesson03::Dist::uniform, seed + n);
    const lesson03::Reference ref = lesson03::reference_dot(in.a.data(), in.b.data(), n);
    const lesson03::DeviceInputs d(in);
    const Result got = student_dot(d, n, blocks);
    for (std::size_t c = 0; c < got.partials.size(); ++c) {
      const std::size_t begin = c * grading03::kChunk;
      const std::size_t size = n - begin < grading03::kChunk ? n - begin : grading03::kChunk;
      const lesson03::Reference chunk =
          lesson03::reference_dot(in.a.data() + begin, in.b.data() + begin, size, 1);
      const double bound = lesson03::dot_error_bound(size, chunk.magnitudes, {256, 1}, false);
      INFO("n = " << n << ", " << blocks << " blocks: partials[" << c << "] = " << got.partials[c]
                  << ", but chunk " << c << "'s dot product is " << chunk.dot << " (within "
                  << bound << ")");
      REQUIRE(lesson03::dot_ok(got.partials[c], chunk.dot, bound));
    }
    const double bound = bound_for(n, ref.magnitudes);
    INFO("n = " << n << ": got " << got.dot << ", expected " << ref.dot << " within " << bound);
    CHECK(lesson03::dot_ok(got.dot, ref.dot, bound));
  }
}

TEST_CASE("the same bits whatever the grid, run after run", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  // Between 2^21 and 2^23 elements, at a chunk's edge or 256 chunks' (add_partials' pass) or not.
  const std::size_t n =
      (std::size_t{1} << 21) +
      course::test::drawn_sizes(seed + 2, {}, {grading03::kChunk, 256 * grading03::kChunk},
                                (std::size_t{3} << 21), 1, "uniform floats, bits across grids")[0];
  const lesson03::Inputs in = lesson03::make_inputs(n, lesson03::Dist::uniform, seed);
  const lesson03::DeviceInputs d(in);
  const float first = student_dot(d, n, 1).dot;
  REQUIRE(std::isfinite(first));
  const int sms = course::sm_count();
  int run = 0;
  for (int blocks : {1, 3, sms, 4 * sms, drawn_grid(300), 1000 + drawn_grid(301), 5000}) {
    for (int again = 0; again < 3; ++again, ++run) {
      const float got = student_dot(d, n, blocks, static_cast<unsigned char>(run)).dot;
      INFO("n = " << n << ", " << blocks << " blocks, run " << again << ": got " << got
                  << ", with 1 block " << first << ": the bits differ");
      CHECK(course::bits_of(got) == course::bits_of(first));
    }
  }
}

TEST_CASE("the partial sums and the bits at sizes the clock might time", "[gpu]") {
  // Between 2^24 and 2^29 elements (one size drawn anywhere there, one from the timed range):
  // whole numbers, so every partial sum must be its chunk's exactly, and the result's bits the
  // same with two grids. An answer that is deterministic only at the sizes the other test cases
  // draw, and adds in the grid's order past them, fails here.
  const std::uint64_t seed = course::test::seed();
  const std::size_t sizes[] = {
      (std::size_t{1} << 24) + course::test::drawn(seed, 500) % (std::size_t{31} << 24),
      (std::size_t{1} << 28) - grading03::kChunk * (course::test::drawn(seed, 501) % 1024) +
          course::test::drawn(seed, 502) % 3};
  const int sms = course::sm_count();
  for (std::size_t n : sizes) {
    const GpuIntegers in(n, seed + n);
    float first = 0;
    for (int blocks : {4 * sms, drawn_grid(503)}) {
      const Result got = student_dot(in.a.data(), in.b.data(), n, blocks);
      std::size_t wrong = 0;
      for (std::size_t c = 0; c < got.partials.size(); ++c)
        wrong += static_cast<double>(got.partials[c]) != static_cast<double>(in.chunk_dots[c]);
      INFO("n = " << n << ", " << blocks << " blocks: " << wrong << " of " << got.partials.size()
                  << " partial sums are not their chunk's (whole numbers: each is exact)");
      CHECK(wrong == 0);
      if (blocks == 4 * sms) {
        first = got.dot;
      } else {
        INFO("n = " << n << ": with " << blocks << " blocks got " << got.dot << ", with " << 4 * sms
                    << " blocks " << first << ": the bits differ");
        CHECK(course::bits_of(got.dot) == course::bits_of(first));
      }
    }
  }
}

TEST_CASE("the partial sums past 2^31 elements, where a 32-bit index wraps", "[gpu]") {
  // 2 x 8 GiB of whole numbers: an int index wraps here.
  check_past(31, 3, "whole numbers past 2^31 (n - 2^31)");
}

TEST_CASE("the partial sums past 2^32 elements, where an unsigned 32-bit index wraps", "[gpu]") {
  // 2 x 16 GiB of whole numbers: n is a std::size_t, and nothing in the statement keeps it below
  // 2^32, so an unsigned int index (or chunk number times kChunk in 32 bits) wraps here. Run on a
  // GPU with 33 GiB free, as an 80 GiB one has.
  check_past(32, 5, "whole numbers past 2^32 (n - 2^32)");
}

TEST_CASE("timing: about 2^28 elements on 4 blocks per SM", "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR 5 in the lesson's
  // CMakeLists.txt): 2 GiB read, under a millisecond at the H100's 3 TB/s, and add_partials' 65,536
  // partial sums. With 4 blocks an SM the grid keeps enough loads in flight only if a block keeps
  // many: honest variants (a thread taking 16 elements in a row, 16-byte loads, a loop the compiler
  // does not unroll, another order of the tree, even one warp a block with eight 16-byte loads in
  // flight a lane, which took 0.69 times the model answer's on an H100) stay within 2 or 3 times;
  // thread 0 adding each chunk alone has one line in flight per block (some 10 ms: 10 to 20 times
  // the model answer's), and one block adding every chunk reads through one SM (a hundred times or
  // more).
  const std::uint64_t seed = course::test::seed();
  const std::size_t n = (std::size_t{1} << 28) -
                        grading03::kChunk * (course::test::drawn(seed, 400) % 1024) +
                        course::test::drawn(seed, 401) % 3;
  const GpuIntegers in(n, seed);
  const int blocks = 4 * course::sm_count();
  course::test::GuardedBuffer<float> result(1);
  course::test::GuardedBuffer<float> partials(grading03::chunks_for(n));
  course::test::report_time([&] {
    grading03::chunked_dot(in.a.data(), in.b.data(), n, blocks, partials.data(), result.data());
  });
  const float got = result.download()[0];
  const double bound = bound_for(n, in.magnitudes);
  INFO("n = " << n << ": got " << got << ", expected " << in.dot << " within " << bound);
  CHECK(lesson03::dot_ok(got, in.dot, bound));
  const std::vector<float> timed_partials = partials.download();
  std::size_t wrong = 0;
  for (std::size_t c = 0; c < timed_partials.size(); ++c)
    wrong += static_cast<double>(timed_partials[c]) != static_cast<double>(in.chunk_dots[c]);
  INFO("the timed runs' partial sums: " << wrong << " of " << timed_partials.size()
                                        << " are not their chunk's");
  CHECK(wrong == 0);
}
