// Grades exercise 4 of lesson 05: bitonic_sort_shared in bitonic_block.cuh, through
// sort_bitonic_block, against std::sort in totalOrder, bit for bit, on every input of the lesson
// at sizes from 1 to 8192. Fresh random inputs each run (the seed is printed).
#include <bitonic_block.cuh>  // <>: the starter or the solution, whichever the build chose

#include <vector>

#include "reference.hpp"
#include "sort_check.cuh"
#include "testing.hpp"

TEST_CASE("the bitonic block sort sorts every input, at every size up to a block's", "[gpu]") {
  for (lesson05::Dist dist : {lesson05::Dist::perm, lesson05::Dist::uniform, lesson05::Dist::sorted,
                              lesson05::Dist::reversed, lesson05::Dist::dups, lesson05::Dist::zeros,
                              lesson05::Dist::special}) {
    for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{31},
                          std::size_t{32}, std::size_t{33}, std::size_t{1000}, std::size_t{1024},
                          std::size_t{4097}, std::size_t{8192}}) {
      const std::vector<float> in = lesson05::make_input(n, dist, course::test::seed() + n);
      INFO(lesson05::dist_name(dist) << ", n = " << n);
      CHECK(
          lesson05::test::sorted_by([](const float* a, float* b,
                                       std::size_t m) { exercise05::sort_bitonic_block(a, b, m); },
                                    in, lesson05::reference_sort(in)) == "");
    }
  }
}

TEST_CASE("the bitonic block sort gives the same result on every run", "[gpu]") {
  const std::size_t n = 8192;
  const std::vector<float> in =
      lesson05::make_input(n, lesson05::Dist::special, course::test::seed());
  const std::vector<float> expected = lesson05::reference_sort(in);
  for (int run = 0; run < 5; ++run) {
    INFO("run " << run);
    CHECK(lesson05::test::sorted_by([](const float* a, float* b,
                                       std::size_t m) { exercise05::sort_bitonic_block(a, b, m); },
                                    in, expected) == "");
  }
}
