// Grades exercise 1 of lesson 05: sort_global_memory in global_memory.cuh, against std::sort in
// totalOrder, bit for bit, on every input of the lesson, at sizes from 1 to 3001 and block sizes
// from 32 to 1024. Fresh random inputs each run (the seed is printed).
#include <global_memory.cuh>  // <>: the starter or the solution, whichever the build chose

#include <vector>

#include "reference.hpp"
#include "sort_check.cuh"
#include "testing.hpp"

TEST_CASE("the global-memory odd-even sort sorts every input", "[gpu]") {
  for (lesson05::Dist dist : {lesson05::Dist::perm, lesson05::Dist::uniform, lesson05::Dist::sorted,
                              lesson05::Dist::reversed, lesson05::Dist::dups, lesson05::Dist::zeros,
                              lesson05::Dist::special}) {
    for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{64},
                          std::size_t{257}, std::size_t{1024}, std::size_t{3001}}) {
      const std::vector<float> in = lesson05::make_input(n, dist, course::test::seed() + n);
      INFO(lesson05::dist_name(dist) << ", n = " << n);
      CHECK(
          lesson05::test::sorted_by([](const float* a, float* b,
                                       std::size_t m) { exercise05::sort_global_memory(a, b, m); },
                                    in, lesson05::reference_sort(in)) == "");
    }
  }
}

TEST_CASE("the global-memory sort works with any block size", "[gpu]") {
  const std::size_t n = 2049;
  const std::vector<float> in =
      lesson05::make_input(n, lesson05::Dist::reversed, course::test::seed());
  for (int threads : {32, 96, 512, 1024}) {
    INFO(threads << " threads");
    CHECK(lesson05::test::sorted_by(
              [&](const float* a, float* b, std::size_t m) {
                exercise05::sort_global_memory(a, b, m, threads);
              },
              in, lesson05::reference_sort(in)) == "");
  }
}
