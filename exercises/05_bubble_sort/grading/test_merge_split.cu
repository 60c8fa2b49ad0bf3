// Grades exercise 2 of lesson 05: merge_split_kernel (merge_split.cuh), through the rounds of
// odd-even transposition on runs of 512 sorted floats, against std::sort in totalOrder, bit for
// bit, on every input of the lesson, at whole runs and at any n; and a count of the comparisons
// checks the technique: a merge of two runs by ranks takes about 2 kRun log2(kRun) of them, a sort
// of the two runs hundreds of times more. Fresh random inputs each run (the seed is printed).
#include <algorithm>
#include <vector>

#include "merge_split_harness.hpp"
#include "reference.hpp"
#include "sort_check.cuh"
#include "testing.hpp"

namespace {

// The input with each run of kRun sorted, as the first step of the sort leaves it.
std::vector<float> runs_sorted(std::vector<float> in) {
  for (std::size_t begin = 0; begin < in.size(); begin += grading05::kRun) {
    const std::size_t end = std::min(in.size(), begin + grading05::kRun);
    std::sort(in.begin() + begin, in.begin() + end, lesson05::TotalOrder{});
  }
  return in;
}

void merge_sort(const float* d_in, float* d_out, std::size_t n) {
  CUDA_CHECK(cudaMemcpy(d_out, d_in, n * sizeof(float), cudaMemcpyDeviceToDevice));
  grading05::merge_rounds(d_out, n);
}

}  // namespace

TEST_CASE("merge-split rounds sort every input, at whole runs and at any n", "[gpu]") {
  for (lesson05::Dist dist : {lesson05::Dist::perm, lesson05::Dist::uniform, lesson05::Dist::sorted,
                              lesson05::Dist::reversed, lesson05::Dist::dups, lesson05::Dist::zeros,
                              lesson05::Dist::special}) {
    for (std::size_t n :
         {std::size_t{1}, std::size_t{2}, std::size_t{511}, std::size_t{512}, std::size_t{513},
          std::size_t{1024}, std::size_t{5 * 512}, std::size_t{10000}, std::size_t{64 * 512 + 7}}) {
      const std::vector<float> in =
          runs_sorted(lesson05::make_input(n, dist, course::test::seed() + n));
      INFO(lesson05::dists().name(dist) << ", n = " << n);
      CHECK(lesson05::test::sorted_by(merge_sort, in, lesson05::reference_sort(in)) == "");
    }
  }
}

TEST_CASE("a merge-split compares O(kRun log kRun) times, not a sort's worth", "[gpu]") {
  // A rank each for the 2 kRun floats, by binary search: 2 kRun (log2(kRun) + 1) comparisons; a
  // little more is allowed. Re-sorting the two runs by odd-even transposition takes about
  // 2 kRun * kRun.
  const unsigned long long most = 2 * grading05::kRun * (9 + 2);
  const std::size_t n = 16 * 512 + 100;
  const std::vector<float> in =
      runs_sorted(lesson05::make_input(n, lesson05::Dist::uniform, course::test::seed()));
  course::DeviceBuffer<float> data(in);
  const grading05::MergeCount count = grading05::merge_rounds_probed(data.data(), n);
  REQUIRE(lesson05::sort_mismatch(data.download().data(), lesson05::reference_sort(in)) == "");
  INFO(count.comparisons << " comparisons in " << count.merges << " merge-splits: "
                         << (count.merges ? count.comparisons / count.merges : 0)
                         << " per merge-split, at most " << most << " for a merge");
  CHECK(count.merges > 0);
  CHECK(count.comparisons <= most * count.merges);
  INFO("no comparison with before(): the floats must be compared in the course's order");
  CHECK(count.comparisons > 0);
}
