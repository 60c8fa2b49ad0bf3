// Grades exercise 1 of lesson 05: odd_even_phase_kernel and phases_for (phase_launches.cuh),
// against std::sort in totalOrder, bit for bit, on every input of the lesson (NaNs and signed zeros
// included), at sizes from 1 to 20011; and a count of the compare-and-swaps checks the technique:
// in P phases, every pair (i, i + 1) is compared once in each phase of its parity, and no other
// two places ever. Fresh random inputs each run (the seed is printed).
#include <vector>

#include "phase_launches_harness.hpp"
#include "reference.hpp"
#include "sort_check.cuh"
#include "testing.hpp"

TEST_CASE("one launch per phase sorts every input", "[gpu]") {
  for (lesson05::Dist dist : {lesson05::Dist::perm, lesson05::Dist::uniform, lesson05::Dist::sorted,
                              lesson05::Dist::reversed, lesson05::Dist::dups, lesson05::Dist::zeros,
                              lesson05::Dist::special}) {
    for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{64},
                          std::size_t{257}, std::size_t{1024}, std::size_t{3001}}) {
      const std::vector<float> in = lesson05::make_input(n, dist, course::test::seed() + n);
      INFO(lesson05::dists().name(dist) << ", n = " << n);
      CHECK(lesson05::test::sorted_by(
                [](const float* a, float* b, std::size_t m) { grading05::phase_sort(a, b, m); }, in,
                lesson05::reference_sort(in)) == "");
    }
  }
  const std::vector<float> reversed =
      lesson05::make_input(20011, lesson05::Dist::reversed, course::test::seed());
  INFO("reversed, n = 20011, more than one block of pairs");
  CHECK(lesson05::test::sorted_by(
            [](const float* a, float* b, std::size_t m) { grading05::phase_sort(a, b, m); },
            reversed, lesson05::reference_sort(reversed)) == "");
}

TEST_CASE("each phase compares each pair of its parity once, and nothing else", "[gpu]") {
  for (std::size_t n : {std::size_t{2}, std::size_t{33}, std::size_t{1000}, std::size_t{1025}}) {
    const std::vector<float> in =
        lesson05::make_input(n, lesson05::Dist::uniform, course::test::seed() + n);
    const course::DeviceBuffer<float> d_in(in);
    course::DeviceBuffer<float> out(n);
    const grading05::PhaseCount count = grading05::phase_sort_probed(d_in.data(), out.data(), n);
    INFO("n = " << n << ", " << count.phases << " phases");
    CHECK(lesson05::sort_mismatch(out.download().data(), lesson05::reference_sort(in)) == "");
    INFO(count.strays << " compare-and-swaps of two places that are not neighbours");
    CHECK(count.strays == 0);
    std::size_t wrong = 0;
    std::size_t first = 0;
    for (std::size_t i = 0; i + 1 < n; ++i) {
      // Phases 0, 2, 4, ... compare the pairs at even i; phases 1, 3, ... those at odd i.
      const std::size_t expected = i % 2 == 0 ? (count.phases + 1) / 2 : count.phases / 2;
      if (count.pair_calls[i] != expected && wrong++ == 0) first = i;
    }
    INFO(wrong << " pairs compared a number of times other than once per phase of their parity; "
               << "the first, (" << first << ", " << first + 1 << "), "
               << (wrong ? count.pair_calls[first] : 0u) << " times");
    CHECK(wrong == 0);
  }
}
