// Grades exercise 2 of lesson 05: merge_split_kernel (merge_split.cuh), through the rounds of
// odd-even transposition on runs of 512 sorted floats, bit for bit, on every input of the lesson,
// at whole runs, at the edges of runs and of pairs of runs, and at sizes drawn from the run's seed.
// Every run the tests check (the timed one aside) is made under a scrambled order drawn from the
// seed (before() and last_float() give it; merge_split_order.hpp), so only an answer that compares
// floats with before() and pads with last_float() sorts; one case uses the course's order,
// totalOrder, with its NaNs and signed zeros. Every checked run but the timed one is probed too:
// each comparison is counted by the thread that made it, so that a merge of two runs by ranks
// (about 2 kRun log2(kRun) comparisons, shared by the block's threads; at least 8 a float are
// asked) passes, and a sort of the two runs (some fifty times more, by odd-even transposition), a
// network that orders some pairs without before(), or one thread walking them (a merge's
// comparisons alone) does not; and with each float of a run marked by a
// mask drawn from the seed, no comparison may set two floats of one run against each other. The
// [timing] case times the rounds for scripts/time_answer.py. Fresh random inputs each run (the seed
// is printed).
#include <algorithm>
#include <bitset>
#include <vector>

#include "merge_split_harness.hpp"
#include "merge_split_order.hpp"
#include "reference.hpp"
#include "sort_check.cuh"
#include "testing.hpp"

namespace {

const lesson05::Dist kDists[] = {
    lesson05::Dist::perm, lesson05::Dist::uniform, lesson05::Dist::sorted, lesson05::Dist::reversed,
    lesson05::Dist::dups, lesson05::Dist::zeros,   lesson05::Dist::special};

// The scrambled order a test case runs under, drawn from the seed (its key is never 0), set for
// the student's kernel while the case runs, and the course's order again at its end.
struct ScrambledOrder {
  grading05::KeyedOrder order;
  ScrambledOrder(std::uint64_t seed, std::uint64_t stream)
      : order{course::test::drawn(seed, stream) | 0x8000000000000001ull} {
    grading05::set_order(order.key);
  }
  ~ScrambledOrder() { grading05::set_order(0); }
  ScrambledOrder(const ScrambledOrder&) = delete;
  ScrambledOrder& operator=(const ScrambledOrder&) = delete;
};

// The input with each run of kRun sorted in `order`, as the first step of the sort leaves it. No
// float is the scrambled order's padding (a NaN no test input needs).
std::vector<float> runs_sorted(std::vector<float> in, const grading05::KeyedOrder& order) {
  for (float& x : in) {
    if (course::bits_of(x) == grading05::kScrambledPad) x = course::from_bits<float>(0x7FC00000u);
  }
  for (std::size_t begin = 0; begin < in.size(); begin += grading05::kRun) {
    const std::size_t end = std::min(in.size(), begin + grading05::kRun);
    std::sort(in.begin() + begin, in.begin() + end, order);
  }
  return in;
}

// All of the input sorted in `order` (every float has its own place in it: no ties but equal bits).
std::vector<float> sorted_in(std::vector<float> in, const grading05::KeyedOrder& order) {
  std::sort(in.begin(), in.end(), order);
  return in;
}

// What the count of a probed run's comparisons must show.
void check_counts(const grading05::MergeCount& count) {
  // A rank each for the 2 kRun floats, by binary search: 2 kRun (log2(kRun) + 1) comparisons; a
  // little more is allowed. Re-sorting the two runs by odd-even transposition takes about
  // 2 kRun * kRun.
  const unsigned long long most = 2 * grading05::kRun * (9 + 2);
  INFO(count.comparisons << " comparisons in " << count.merges << " merge-splits: "
                         << (count.merges ? count.comparisons / count.merges : 0)
                         << " per merge-split, at most " << most << " for a merge");
  CHECK(count.comparisons <= most * count.merges);
  // And no fewer than a merge by ranks makes: each of the 2 kRun floats is placed by a binary
  // search over the other run's kRun floats, at least log2(kRun) = 9 comparisons; 8 are asked. A
  // sorting network that orders some pairs by where they came from, or an order of the answer's
  // own, makes fewer.
  const unsigned long long least = 2 * grading05::kRun * 8;
  INFO(count.comparisons << " comparisons with before() in " << count.merges
                         << " merge-splits: a merge by ranks makes at least " << least
                         << " a merge-split, each float's place found by a binary search");
  CHECK(count.comparisons >= least * count.merges);
  // Each of a block's 256 threads ranks 4 of the 2 kRun floats: some 4 (log2(kRun) + 1)
  // comparisons a merge-split; twice that is allowed. One thread walking both runs makes some
  // 2 kRun of them.
  const unsigned long long per_thread = 2 * 4 * (9 + 2);
  INFO("comparisons by one thread number, summed over the blocks: "
       << count.busiest_thread << ", at most " << per_thread
       << " a merge-split: the block's threads share the ranking");
  CHECK(count.busiest_thread <= per_thread * count.merges);
}

// The rounds on `in` (its runs sorted in the order set), probed, against `expected`: the output
// bit for bit (and nothing written outside it, the input untouched), then the comparisons.
void check_rounds(const std::vector<float>& in, const std::vector<float>& expected) {
  grading05::MergeCount count;
  const auto rounds = [&](const float* d_in, float* d_out, std::size_t n) {
    CUDA_CHECK(cudaMemcpy(d_out, d_in, n * sizeof(float), cudaMemcpyDeviceToDevice));
    count = grading05::merge_rounds_probed(d_out, n);
  };
  CHECK(lesson05::test::sorted_by(rounds, in, expected) == "");
  check_counts(count);
}

}  // namespace

TEST_CASE("merge-split rounds sort every input, at whole runs and at any n", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  const ScrambledOrder scrambled(seed, 1000);
  // Whole runs, a run and a float, one float short, odd numbers of runs, a last pair whose upper
  // run holds one float; then sizes drawn from the seed at the edges of runs and of pairs of runs.
  const std::vector<std::size_t> sizes = course::test::drawn_sizes(
      seed, {1, 2, 511, 512, 513, 1023, 1024, 1025, 1537, 5 * 512, 10000, 64 * 512 + 7},
      {512, 1024}, 300000, 4, "n");
  for (lesson05::Dist dist : kDists) {
    for (std::size_t n : sizes) {
      const std::vector<float> in =
          runs_sorted(lesson05::make_input(n, dist, seed + n), scrambled.order);
      INFO(lesson05::dists().name(dist)
           << ", n = " << n << ", the order scrambled by key " << scrambled.order.key);
      check_rounds(in, sorted_in(in, scrambled.order));
    }
  }
}

TEST_CASE("a merge-split compares O(kRun log kRun) times, not a sort's worth", "[gpu]") {
  // Counted at a fixed size and at sizes drawn from the seed, on inputs drawn too.
  const std::uint64_t seed = course::test::seed();
  const ScrambledOrder scrambled(seed, 1001);
  std::vector<std::size_t> sizes = {16 * 512 + 100};
  for (std::size_t n :
       course::test::at_edges(course::test::seed(), 100, {512, 1024}, 1025, 40000, 3))
    sizes.push_back(n);
  course::test::drawn_sizes(seed, sizes, {}, 0, 0, "counted n");
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    const std::size_t n = sizes[s];
    const lesson05::Dist dist = kDists[course::test::drawn(seed, 200 + s) % 7];
    const std::vector<float> in =
        runs_sorted(lesson05::make_input(n, dist, seed + s), scrambled.order);
    INFO(lesson05::dists().name(dist) << ", n = " << n);
    check_rounds(in, sorted_in(in, scrambled.order));
  }
}

TEST_CASE("in the course's order: NaNs and signed zeros in totalOrder's places", "[gpu]") {
  // before() and last_float() as the statement gives them, on the lesson's inputs with NaNs,
  // infinities and signed zeros: the rounds sort in totalOrder, bit for bit. Whole runs and a short
  // last run, on inputs and sizes drawn from the seed.
  const std::uint64_t seed = course::test::seed();
  const std::vector<std::size_t> sizes =
      course::test::drawn_sizes(seed, {1024, 5 * 512 + 100}, {512, 1024}, 40000, 2, "course's n");
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    const std::size_t n = sizes[s];
    for (lesson05::Dist dist : {lesson05::Dist::special, lesson05::Dist::zeros,
                                kDists[course::test::drawn(seed, 900 + s) % 7]}) {
      const std::vector<float> in =
          runs_sorted(lesson05::make_input(n, dist, seed + 900 + s), grading05::KeyedOrder{});
      INFO(lesson05::dists().name(dist) << ", n = " << n << ", totalOrder");
      check_rounds(in, lesson05::reference_sort(in));
    }
  }
}

TEST_CASE("a merge-split compares floats of one run only with floats of the other", "[gpu]") {
  // Both runs are sorted already, so a merge never needs to compare two floats of one run: a
  // float's rank in the merge is its place in its own run plus a count of the other run's floats.
  // A sorting network over the two runs (a bitonic merge, say) compares floats that came from the
  // same run, step after step. Every float of run r is marked with r's parity, as the parity of
  // its bits under a mask drawn from the seed (the float's lowest bit flipped where needed), so
  // that the probe can tell the runs apart and an answer cannot tell a marked input from another;
  // the runs are sorted after that. One launch at each offset, on a number of runs drawn from the
  // seed, and a third with a short last run (n not a whole number of runs), from a run drawn too.
  const std::uint64_t seed = course::test::seed();
  const ScrambledOrder scrambled(seed, 1002);
  const auto mask = static_cast<std::uint32_t>(course::test::drawn(seed, 740)) | 3u;
  for (std::size_t launch = 0; launch < 3; ++launch) {
    const std::size_t first_run = launch < 2 ? launch : course::test::drawn(seed, 720) % 2;
    const std::size_t runs = 2 + first_run + 2 * (course::test::drawn(seed, 700 + launch) % 20);
    const std::size_t short_by =
        launch < 2 ? 0 : 1 + course::test::drawn(seed, 730) % (grading05::kRun - 1);
    const std::size_t n = runs * grading05::kRun - short_by;
    const lesson05::Dist dist = kDists[course::test::drawn(seed, 710 + launch) % 7];
    std::vector<float> in = lesson05::make_input(n, dist, seed + launch);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t bits = course::bits_of<float>(in[i]);
      if (std::bitset<32>(bits & mask).count() % 2 != (i / grading05::kRun) % 2) bits ^= 1u;
      if (bits == grading05::kScrambledPad) bits ^= 3u;  // keeps the parity under any mask
      in[i] = course::from_bits<float>(bits);
    }
    in = runs_sorted(in, scrambled.order);
    course::DeviceBuffer<float> data(in);
    const grading05::RunComparisons count =
        grading05::merge_once_probed(data.data(), n, first_run, mask);
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
  const std::vector<float> in =
      runs_sorted(lesson05::make_input(n, lesson05::Dist::uniform, seed), grading05::KeyedOrder{});
  const course::DeviceBuffer<float> d_in(in);
  course::DeviceBuffer<float> out(n);
  course::test::report_time([&] { grading05::merge_rounds(out.data(), n); }, 9,
                            [&] {
                              CUDA_CHECK(cudaMemcpy(out.data(), d_in.data(), n * sizeof(float),
                                                    cudaMemcpyDeviceToDevice));
                            });
  REQUIRE(lesson05::sort_mismatch(out.download().data(), lesson05::reference_sort(in)) == "");
}
