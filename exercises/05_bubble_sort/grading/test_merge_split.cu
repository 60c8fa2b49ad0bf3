// Grades exercise 2 of lesson 05: merge_split_kernel (merge_split.cuh), through the rounds of
// odd-even transposition on runs of 512 sorted floats, against std::sort in totalOrder, bit for
// bit, on every input of the lesson, at whole runs, at the edges of runs and of pairs of runs, and
// at sizes drawn from the run's seed; and a count of the comparisons checks the technique: a merge
// of two runs by ranks takes about 2 kRun log2(kRun) of them, a sort of the two runs hundreds of
// times more, no thread makes a merge's comparisons alone, every comparison sets a float of one
// run against one of the other, and the floats are ordered by before() alone (turned round, the
// rounds must sort the other way). The [timing] case times the rounds for scripts/time_answer.py:
// a merge-split that one thread walks, or that sorts the runs again with comparisons of its own,
// is slower. Fresh random inputs each run (the seed is printed).
#include <algorithm>
#include <vector>

#include "merge_split_harness.hpp"
#include "reference.hpp"
#include "sort_check.cuh"
#include "testing.hpp"

namespace {

const lesson05::Dist kDists[] = {
    lesson05::Dist::perm, lesson05::Dist::uniform, lesson05::Dist::sorted, lesson05::Dist::reversed,
    lesson05::Dist::dups, lesson05::Dist::zeros,   lesson05::Dist::special};

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
  const std::uint64_t seed = course::test::seed();
  // Whole runs, a run and a float, one float short, odd numbers of runs, a last pair whose upper
  // run holds one float; then sizes drawn from the seed at the edges of runs and of pairs of runs.
  const std::vector<std::size_t> sizes = course::test::drawn_sizes(
      seed, {1, 2, 511, 512, 513, 1023, 1024, 1025, 1537, 5 * 512, 10000, 64 * 512 + 7},
      {512, 1024}, 300000, 4, "n");
  for (lesson05::Dist dist : kDists) {
    for (std::size_t n : sizes) {
      const std::vector<float> in = runs_sorted(lesson05::make_input(n, dist, seed + n));
      INFO(lesson05::dists().name(dist) << ", n = " << n);
      CHECK(lesson05::test::sorted_by(merge_sort, in, lesson05::reference_sort(in)) == "");
    }
  }
}

TEST_CASE("a merge-split compares O(kRun log kRun) times, not a sort's worth", "[gpu]") {
  // A rank each for the 2 kRun floats, by binary search: 2 kRun (log2(kRun) + 1) comparisons; a
  // little more is allowed. Re-sorting the two runs by odd-even transposition takes about
  // 2 kRun * kRun. Counted at a fixed size and at sizes drawn from the seed, on inputs drawn too.
  const unsigned long long most = 2 * grading05::kRun * (9 + 2);
  const std::uint64_t seed = course::test::seed();
  std::vector<std::size_t> sizes = {16 * 512 + 100};
  for (std::size_t n :
       course::test::at_edges(course::test::seed(), 100, {512, 1024}, 1025, 40000, 3))
    sizes.push_back(n);
  course::test::drawn_sizes(seed, sizes, {}, 0, 0, "counted n");
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    const std::size_t n = sizes[s];
    const lesson05::Dist dist = kDists[course::test::drawn(seed, 200 + s) % 7];
    const std::vector<float> in = runs_sorted(lesson05::make_input(n, dist, seed + s));
    course::DeviceBuffer<float> data(in);
    const grading05::MergeCount count = grading05::merge_rounds_probed(data.data(), n);
    INFO(lesson05::dists().name(dist) << ", n = " << n);
    REQUIRE(lesson05::sort_mismatch(data.download().data(), lesson05::reference_sort(in)) == "");
    INFO(count.comparisons << " comparisons in " << count.merges << " merge-splits: "
                           << (count.merges ? count.comparisons / count.merges : 0)
                           << " per merge-split, at most " << most << " for a merge");
    CHECK(count.merges > 0);
    CHECK(count.comparisons <= most * count.merges);
    INFO("no comparison with before(): the floats must be compared in the course's order");
    CHECK(count.comparisons > 0);
    // Each of a block's 256 threads ranks 4 of the 2 kRun floats: some 4 (log2(kRun) + 1)
    // comparisons a merge-split; twice that is allowed. One thread walking both runs makes some
    // 2 kRun of them.
    const unsigned long long per_thread = 2 * 4 * (9 + 2);
    INFO("comparisons by one thread number, summed over the blocks: " << count.busiest_thread
                                                                      << ", at most " << per_thread
                                                                      << " a merge-split: the "
                                                                         "block's threads share "
                                                                         "the ranking");
    CHECK(count.busiest_thread <= per_thread * count.merges);
  }
}

TEST_CASE("the order is before()'s alone: turned round, the rounds sort the other way", "[gpu]") {
  // The statement says to compare floats only with before() and to pad with last_float(). Here
  // before(a, b) means b before a in totalOrder and last_float() is the first float of totalOrder,
  // so the runs, sorted in that order, must come out sorted in it: an answer that compares floats
  // with an order of its own sorts them the course's way instead. Whole runs and a short last run,
  // on inputs drawn from the seed.
  const std::uint64_t seed = course::test::seed();
  const std::vector<std::size_t> sizes =
      course::test::drawn_sizes(seed, {1024, 5 * 512 + 100}, {512, 1024}, 40000, 2, "reversed n");
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    const std::size_t n = sizes[s];
    const lesson05::Dist dist = kDists[course::test::drawn(seed, 900 + s) % 7];
    std::vector<float> in = lesson05::make_input(n, dist, seed + 900 + s);
    for (std::size_t begin = 0; begin < n; begin += grading05::kRun) {
      const std::size_t end = std::min(n, begin + grading05::kRun);
      std::sort(in.begin() + begin, in.begin() + end,
                [](float a, float b) { return lesson05::TotalOrder{}(b, a); });
    }
    std::vector<float> expected = lesson05::reference_sort(in);
    std::reverse(expected.begin(), expected.end());
    course::DeviceBuffer<float> data(in);
    grading05::merge_rounds_reversed(data.data(), n);
    INFO(lesson05::dists().name(dist)
         << ", n = " << n << ": with before() turned round (b before a in totalOrder), the rounds "
         << "must sort in that order, as an answer that compares only with before() does");
    CHECK(lesson05::sort_mismatch(data.download().data(), expected) == "");
  }
}

TEST_CASE("a merge-split compares floats of one run only with floats of the other", "[gpu]") {
  // Both runs are sorted already, so a merge never needs to compare two floats of one run: a
  // float's rank in the merge is its place in its own run plus a count of the other run's floats.
  // A sorting network over the two runs (a bitonic merge, say) compares floats that came from the
  // same run, step after step. Every float of run r gets r's lowest bit as its own lowest bit
  // (the runs sorted after that), so that the probe can tell the runs apart; one launch at each
  // offset, on a number of runs drawn from the seed.
  // A third launch has a short last run (n not a whole number of runs), from a run drawn too.
  const std::uint64_t seed = course::test::seed();
  for (std::size_t launch = 0; launch < 3; ++launch) {
    const std::size_t first_run = launch < 2 ? launch : course::test::drawn(seed, 720) % 2;
    const std::size_t runs = 2 + first_run + 2 * (course::test::drawn(seed, 700 + launch) % 20);
    const std::size_t short_by =
        launch < 2 ? 0 : 1 + course::test::drawn(seed, 730) % (grading05::kRun - 1);
    const std::size_t n = runs * grading05::kRun - short_by;
    const lesson05::Dist dist = kDists[course::test::drawn(seed, 710 + launch) % 7];
    std::vector<float> in = lesson05::make_input(n, dist, seed + launch);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t bits =
          (course::bits_of<float>(in[i]) & ~1u) | ((i / grading05::kRun) % 2);
      in[i] = course::from_bits<float>(bits);
    }
    in = runs_sorted(in);
    course::DeviceBuffer<float> data(in);
    const grading05::RunComparisons count = grading05::merge_once_probed(data.data(), n, first_run);
    INFO(lesson05::dists().name(dist)
         << ", n = " << n << ", merged from run " << first_run << ": " << count.same_run << " of "
         << count.comparisons
         << " comparisons set two floats of the same run against each other; a merge by ranks "
            "compares a float only with floats of the other run");
    CHECK(count.comparisons > 0);
    CHECK(count.same_run == 0);
  }
}

TEST_CASE("timing: the rounds on about 2^19 floats", "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR in the lesson's
  // CMakeLists.txt): 1024 rounds of 512 merge-splits each, about 5 us a round on the H100 (a few
  // ms in all). A merge-split that one thread walks with two pointers (1024 steps in a row, some
  // 40 us), or that sorts the two runs again, takes several times as long. Every call starts
  // from the same unmerged runs, copied in off the clock.
  const std::uint64_t seed = course::test::seed();
  const std::size_t n = (std::size_t{1} << 19) + course::test::drawn(seed, 300) % 512;
  const std::vector<float> in = runs_sorted(lesson05::make_input(n, lesson05::Dist::uniform, seed));
  const course::DeviceBuffer<float> d_in(in);
  course::DeviceBuffer<float> out(n);
  course::test::report_time([&] { grading05::merge_rounds(out.data(), n); }, 9,
                            [&] {
                              CUDA_CHECK(cudaMemcpy(out.data(), d_in.data(), n * sizeof(float),
                                                    cudaMemcpyDeviceToDevice));
                            });
  REQUIRE(lesson05::sort_mismatch(out.download().data(), lesson05::reference_sort(in)) == "");
}
