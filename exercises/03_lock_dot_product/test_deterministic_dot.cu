// Grades exercise 2 of lesson 03: exercise03::deterministic_dot in deterministic_dot.cuh. Fresh
// random inputs each run of the tests (the seed is printed; COURSE_TEST_SEED repeats it).
#include <deterministic_dot.cuh>  // <>: the starter or the solution, whichever the build chose

#include <vector>

#include "kernels.cuh"  // lesson 03: the inputs on the GPU
#include "reference.hpp"
#include "table.hpp"
#include "testing.hpp"

namespace {

// The student's dot product of the inputs, into a poisoned result, with guard zones around the
// result and the scratch.
float student_dot(const float* a, const float* b, std::size_t n, unsigned char poison = 0xFF) {
  course::test::GuardedBuffer<float> result(1);
  course::test::GuardedBuffer<float> partials(exercise03::kMaxPartials);
  result.poison(poison);
  partials.poison(poison);
  exercise03::deterministic_dot(a, b, n, partials.data(), result.data());
  const float got = result.download()[0];
  REQUIRE(result.guards_intact());
  REQUIRE(partials.guards_intact());
  return got;
}

}  // namespace

TEST_CASE("the deterministic dot product is exact on whole numbers, at every size", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{31}, std::size_t{33},
                        std::size_t{255}, std::size_t{257}, std::size_t{4097}, std::size_t{1000003},
                        std::size_t{1 + seed % 1000000}}) {
    const lesson03::Inputs in = lesson03::make_inputs(n, lesson03::Dist::integers, seed + n);
    const lesson03::Reference ref = lesson03::reference_dot(in.a.data(), in.b.data(), n);
    const lesson03::DeviceInputs d(in);
    INFO("n = " << n);
    CHECK(static_cast<double>(student_dot(d.a.data(), d.b.data(), n)) == ref.dot);
  }
}

TEST_CASE("the deterministic dot product is accurate on uniform floats", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (std::size_t n : {std::size_t{4097}, std::size_t{(1u << 24) + 5}}) {
    const lesson03::Inputs in = lesson03::make_inputs(n, lesson03::Dist::uniform, seed + n);
    const lesson03::Reference ref = lesson03::reference_dot(in.a.data(), in.b.data(), n);
    // At least 256 threads, at most kMaxPartials partial sums added in sequence.
    const double bound =
        lesson03::dot_error_bound(n, ref.magnitudes, {256, exercise03::kMaxPartials}, false);
    const lesson03::DeviceInputs d(in);
    const float got = student_dot(d.a.data(), d.b.data(), n);
    INFO("n = " << n << ": got " << got << ", expected " << ref.dot << " within " << bound);
    CHECK(lesson03::dot_ok(got, ref.dot, bound));
  }
}

TEST_CASE("the deterministic dot product gives the same bits on 10 runs", "[gpu]") {
  const std::size_t n = std::size_t{1} << 22;
  const lesson03::Inputs in =
      lesson03::make_inputs(n, lesson03::Dist::uniform, course::test::seed());
  const lesson03::Reference ref = lesson03::reference_dot(in.a.data(), in.b.data(), n);
  const lesson03::DeviceInputs d(in);
  const float first = student_dot(d.a.data(), d.b.data(), n);
  REQUIRE(std::isfinite(first));
  REQUIRE(std::fabs(first - ref.dot) <= 1e-3 * ref.magnitudes);
  for (int r = 0; r < 10; ++r) {
    INFO("run " << r);
    CHECK(course::bits_of(student_dot(d.a.data(), d.b.data(), n, static_cast<unsigned char>(r))) ==
          course::bits_of(first));
  }
}
