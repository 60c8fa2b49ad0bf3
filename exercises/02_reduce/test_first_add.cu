// Grades exercise 1 of lesson 02: first_add_kernel in first_add.cuh, for ints and floats. Fresh
// random inputs each run (the seed is printed; COURSE_TEST_SEED repeats it).
#include <first_add.cuh>  // <>: the starter or the solution, whichever the build chose

#include <vector>

#include "reference.hpp"
#include "testing.hpp"

namespace {

template <typename T>
T student_sum(const std::vector<T>& x) {
  const course::DeviceBuffer<T> d_x(x);
  course::test::GuardedBuffer<T> result(1);
  result.poison(0xFF);
  exercise02::reduce_first_add(d_x.data(), x.size(), result.data());
  const T got = result.download()[0];
  REQUIRE(result.guards_intact());
  return got;
}

}  // namespace

TEST_CASE("the first add during the load sums ints exactly, at every size", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{255}, std::size_t{256},
                        std::size_t{257}, std::size_t{511}, std::size_t{512}, std::size_t{513},
                        std::size_t{4097}, std::size_t{1000003}, std::size_t{1 + seed % 500000}}) {
    const auto x = lesson02::make_input<int>(n, lesson02::Dist::uniform, seed + n);
    INFO("n = " << n);
    CHECK(student_sum(x) == lesson02::reference_sum(x.data(), n));
  }
}

TEST_CASE("the first add during the load sums whole-number floats exactly", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (std::size_t n : {std::size_t{1}, std::size_t{513}, std::size_t{(1 << 24) + 7}}) {
    const auto x = lesson02::make_input<float>(n, lesson02::Dist::integers, seed + n);
    INFO("n = " << n);
    CHECK(static_cast<double>(student_sum(x)) == lesson02::reference_sum(x.data(), n));
  }
}
