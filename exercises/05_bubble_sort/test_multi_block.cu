// Grades exercise 2 of lesson 05: sort_multi_block in multi_block.cuh, against std::sort in
// totalOrder, bit for bit: first at n that are whole segments, then at any n, at several block
// sizes. Fresh random inputs each run (the seed is printed).
#include <multi_block.cuh>  // <>: the starter or the solution, whichever the build chose

#include <vector>

#include "reference.hpp"
#include "sort_check.cuh"
#include "testing.hpp"

namespace {

void check_sizes(const std::vector<std::size_t>& sizes, int threads) {
  for (lesson05::Dist dist :
       {lesson05::Dist::reversed, lesson05::Dist::uniform, lesson05::Dist::special}) {
    for (std::size_t n : sizes) {
      const std::vector<float> in = lesson05::make_input(n, dist, course::test::seed() + n);
      INFO(lesson05::dist_name(dist) << ", n = " << n << ", " << threads << " threads");
      CHECK(lesson05::test::sorted_by(
                [&](const float* a, float* b, std::size_t m) {
                  exercise05::sort_multi_block(a, b, m, threads);
                },
                in, lesson05::reference_sort(in)) == "");
    }
  }
}

}  // namespace

TEST_CASE("the multi-block sort, at whole segments", "[gpu]") {
  for (int threads : {32, 256, 1024}) {
    const std::size_t segment = 2 * static_cast<std::size_t>(threads);
    check_sizes({2 * segment, 3 * segment, 10 * segment, 64 * segment}, threads);
  }
}

TEST_CASE("the multi-block sort, at any n", "[gpu]") {
  for (int threads : {32, 256}) {
    check_sizes({1, 2, 31, 257, 1000, 4097, 100003}, threads);
  }
}
