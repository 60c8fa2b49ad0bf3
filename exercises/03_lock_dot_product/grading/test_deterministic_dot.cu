// Grades exercise 2 of lesson 03: chunk_dots and add_partials (deterministic_dot.cuh). The result
// must be exact on whole numbers at awkward sizes and within the error bound on uniform floats; it
// must have the same bits whatever the grid and on every run; and each partial sum must be its own
// chunk's, which checks the technique. Fresh random inputs each run (the seed is printed;
// COURSE_TEST_SEED repeats it); the result and the partial sums are poisoned first and have guard
// zones around them.
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
Result student_dot(const lesson03::DeviceInputs& d, std::size_t n, int blocks,
                   unsigned char poison = 0xFF) {
  course::test::GuardedBuffer<float> result(1);
  course::test::GuardedBuffer<float> partials(grading03::chunks_for(n));
  result.poison(poison);
  partials.poison(poison);
  grading03::chunked_dot(d.a.data(), d.b.data(), n, blocks, partials.data(), result.data());
  REQUIRE(result.guards_intact());
  REQUIRE(partials.guards_intact());
  return {result.download()[0], partials.download()};
}

// The bound for this exercise's shape: 16 products per thread in a chunk, a block's tree, then the
// partials, ceil(chunks / 256) per thread, and a tree again.
double bound_for(std::size_t n, double magnitudes) {
  const std::size_t chunks = grading03::chunks_for(n);
  return lesson03::dot_error_bound(n, magnitudes, {chunks * 256, (chunks + 255) / 256 + 10}, false);
}

}  // namespace

TEST_CASE("the chunked dot product is exact on whole numbers, at every size", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{31}, std::size_t{33},
                        std::size_t{257}, std::size_t{4095}, std::size_t{4096}, std::size_t{4097},
                        std::size_t{8193}, std::size_t{1000003}, std::size_t{1 + seed % 1000000}}) {
    const lesson03::Inputs in = lesson03::make_inputs(n, lesson03::Dist::integers, seed + n);
    const lesson03::Reference ref = lesson03::reference_dot(in.a.data(), in.b.data(), n);
    const lesson03::DeviceInputs d(in);
    INFO("the dot product of n = " << n << " whole numbers");
    CHECK(static_cast<double>(student_dot(d, n, course::sm_count()).dot) == ref.dot);
  }
}

TEST_CASE("each partial sum is its own chunk's, and the result is accurate", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (std::size_t n : {std::size_t{4097}, std::size_t{(1u << 24) + 5}}) {
    const lesson03::Inputs in = lesson03::make_inputs(n, lesson03::Dist::uniform, seed + n);
    const lesson03::Reference ref = lesson03::reference_dot(in.a.data(), in.b.data(), n);
    const lesson03::DeviceInputs d(in);
    const Result got = student_dot(d, n, course::sm_count());
    for (std::size_t c = 0; c < got.partials.size(); ++c) {
      const std::size_t begin = c * grading03::kChunk;
      const std::size_t size = n - begin < grading03::kChunk ? n - begin : grading03::kChunk;
      const lesson03::Reference chunk =
          lesson03::reference_dot(in.a.data() + begin, in.b.data() + begin, size, 1);
      const double bound = lesson03::dot_error_bound(size, chunk.magnitudes, {256, 1}, false);
      INFO("n = " << n << ": partials[" << c << "] = " << got.partials[c] << ", but chunk " << c
                  << "'s dot product is " << chunk.dot << " (within " << bound << ")");
      REQUIRE(lesson03::dot_ok(got.partials[c], chunk.dot, bound));
    }
    const double bound = bound_for(n, ref.magnitudes);
    INFO("n = " << n << ": got " << got.dot << ", expected " << ref.dot << " within " << bound);
    CHECK(lesson03::dot_ok(got.dot, ref.dot, bound));
  }
}

TEST_CASE("the same bits whatever the grid, run after run", "[gpu]") {
  const std::size_t n = (std::size_t{1} << 22) + 77;
  const lesson03::Inputs in =
      lesson03::make_inputs(n, lesson03::Dist::uniform, course::test::seed());
  const lesson03::DeviceInputs d(in);
  const float first = student_dot(d, n, 1).dot;
  REQUIRE(std::isfinite(first));
  const int sms = course::sm_count();
  int run = 0;
  for (int blocks : {1, 3, sms, 4 * sms, 1000, 5000}) {
    for (int again = 0; again < 3; ++again, ++run) {
      const float got = student_dot(d, n, blocks, static_cast<unsigned char>(run)).dot;
      INFO(blocks << " blocks, run " << again << ": got " << got << ", with 1 block " << first
                  << ": the bits differ");
      CHECK(course::bits_of(got) == course::bits_of(first));
    }
  }
}
