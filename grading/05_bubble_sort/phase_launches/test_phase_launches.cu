// Grades exercise 1 of lesson 05: odd_even_phase_kernel and phases_for (phase_launches.cuh),
// against std::sort in totalOrder, bit for bit, on every input of the lesson (NaNs and signed zeros
// included), at the edges of a warp, a block and a block's pairs and at sizes drawn from the run's
// seed; and a count of the compare-and-swaps checks the technique: in P phases, every pair
// (i, i + 1) is compared once in each phase of its parity, only in a launch of that phase, by the
// thread the statement gives it (thread p, the pair at 2p + phase % 2), and no other two places
// ever; phases_for(n) is what odd-even transposition needs, and the sort is made launch by launch,
// each launch's result against the same phase made on the CPU, bit for bit; and every sort checked
// for its output is the probed one, its input also sorted and spot-checked launch by launch. The
// [timing] case times the whole sort for scripts/time_answer.py. Fresh random inputs each run (the
// seed is printed).
#include <algorithm>
#include <string>
#include <vector>

#include "phase_launches_harness.hpp"
#include "reference.hpp"
#include "sort_check.cuh"
#include "testing.hpp"

namespace {

const lesson05::Dist kDists[] = {
    lesson05::Dist::perm, lesson05::Dist::uniform, lesson05::Dist::sorted, lesson05::Dist::reversed,
    lesson05::Dist::dups, lesson05::Dist::zeros,   lesson05::Dist::special};

// How many times each pair (i, i + 1) swaps in `phases` phases of odd-even transposition of `in`.
std::vector<unsigned> swaps_of(std::vector<float> in, std::size_t phases) {
  const std::size_t n = in.size();
  std::vector<unsigned> swaps(n > 0 ? n - 1 : 0, 0);
  for (std::size_t phase = 0; phase < phases; ++phase) {
    for (std::size_t i = phase % 2; i + 1 < n; i += 2) {
      if (lesson05::TotalOrder{}(in[i + 1], in[i])) {
        std::swap(in[i], in[i + 1]);
        ++swaps[i];
      }
    }
  }
  return swaps;
}

// What the compare-and-swaps of one probed sort of `in` must show: in its P phases, every pair
// (i, i + 1) compared once in each phase of its parity, in a launch of that phase, by the pair's
// own thread, and no other two places ever; and each pair's calls swapped it as often as odd-even
// transposition swaps it (a call on a pair that other code put in order first swaps nothing).
// Returns whether it does.
bool check_compare_and_swaps(const grading05::PhaseCount& count, const std::vector<float>& in) {
  const std::size_t n = in.size();
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
  INFO(count.off_phase << " compare-and-swaps of a pair in a launch of the other parity's phase: "
                       << "each launch is one phase, and its pairs are those of its parity");
  CHECK(count.off_phase == 0);
  INFO(count.other_thread << " compare-and-swaps made by another thread than the pair's own "
                          << "(thread p of the grid takes the pair at 2p + phase % 2)");
  CHECK(count.other_thread == 0);
  const std::vector<unsigned> expected = swaps_of(in, count.phases);
  std::size_t wrong_swaps = 0;
  std::size_t first_swap = 0;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    if (count.pair_swaps[i] != expected[i] && wrong_swaps++ == 0) first_swap = i;
  }
  INFO(wrong_swaps << " pairs whose compare-and-swaps swapped them a number of times other than "
                   << "odd-even transposition does; the first, (" << first_swap << ", "
                   << first_swap + 1 << "), " << (wrong_swaps ? count.pair_swaps[first_swap] : 0u)
                   << " times, where it swaps " << (wrong_swaps ? expected[first_swap] : 0u)
                   << ": every swap is order_pair's, on its pair, in its phase");
  CHECK(wrong_swaps == 0);
  return count.strays == 0 && wrong == 0 && count.off_phase == 0 && count.other_thread == 0 &&
         wrong_swaps == 0;
}

// Every sort the tests check for its output is the one made with the compare-and-swaps counted,
// and the same input is also sorted launch by launch, checked at five launches (the first two, two
// drawn from the seed, the last), each against the same phase made on the CPU; which of the two
// comes first is drawn too. So no size, however large, and no call of the sort, however many came
// before it, can sort some other way, or with one thread doing its block's pairs, where only the
// output is looked at. Returns whether the sort passed (the test stops at the first that does not:
// a wrong answer may be slow).
bool check_sort(const std::vector<float>& in, std::uint64_t seed) {
  const std::size_t n = in.size();
  const std::size_t phases = grading05::phases_for(n);
  std::vector<std::size_t> at = {0, 1};
  if (phases > 2) {
    at.push_back(2 + course::test::drawn(seed, 800) % (phases - 2));
    at.push_back(2 + course::test::drawn(seed, 801) % (phases - 2));
  }
  if (phases > 0) at.push_back(phases - 1);
  std::sort(at.begin(), at.end());
  at.erase(std::unique(at.begin(), at.end()), at.end());
  while (!at.empty() && at.back() >= phases)
    at.pop_back();
  const auto stepped = [&] {
    const std::string step = grading05::phases_step_by_step(in, at);
    CHECK(step == "");
    return step.empty();
  };
  const auto probed = [&] {
    grading05::PhaseCount count;
    const std::string sorted = lesson05::test::sorted_by(
        [&](const float* a, float* b, std::size_t m) {
          count = grading05::phase_sort_probed(a, b, m);
        },
        in, lesson05::reference_sort(in));
    CHECK(sorted == "");
    return check_compare_and_swaps(count, in) && sorted.empty();
  };
  if (course::test::drawn(seed, 802) % 2 == 0) return stepped() && probed();
  return probed() && stepped();
}

}  // namespace

TEST_CASE("one launch per phase sorts every input", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  // The edges of a warp (32), of a block's 256 pairs (512 places) and of two of them, and sizes
  // drawn from the seed at those edges: every run a size nobody could know in advance.
  const std::vector<std::size_t> sizes = course::test::drawn_sizes(
      seed, {1, 2, 3, 31, 32, 33, 255, 256, 257, 511, 512, 513, 1023, 1025, 3001}, {32, 512, 1024},
      12000, 4, "n");
  for (lesson05::Dist dist : kDists) {
    for (std::size_t n : sizes) {
      const std::vector<float> in = lesson05::make_input(n, dist, seed + n);
      INFO(lesson05::dists().name(dist) << ", n = " << n);
      if (!check_sort(in, seed + n)) return;
    }
  }
  // Reversed, past 16,384: the smallest value travels the whole array, through dozens of blocks.
  const std::size_t far = course::test::drawn_sizes(
      seed, course::test::at_edges(course::test::seed(), 100, {512}, 16384, 24576, 1), {}, 0, 0,
      "reversed n")[0];
  const std::vector<float> reversed = lesson05::make_input(far, lesson05::Dist::reversed, seed);
  INFO("reversed, n = " << far << ", many blocks of pairs");
  check_sort(reversed, seed + far);
}

TEST_CASE("each phase compares each pair of its parity once, and nothing else", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  std::vector<std::size_t> sizes = {2, 3, 513};
  for (std::size_t n : course::test::at_edges(course::test::seed(), 200, {32, 512}, 4, 4000, 3))
    sizes.push_back(n);
  course::test::drawn_sizes(seed, sizes, {}, 0, 0, "probed n");
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    const std::size_t n = sizes[s];
    const lesson05::Dist dist = kDists[course::test::drawn(seed, 300 + s) % 7];
    const std::vector<float> in = lesson05::make_input(n, dist, seed + n);
    const course::DeviceBuffer<float> d_in(in);
    course::DeviceBuffer<float> out(n);
    const grading05::PhaseCount count = grading05::phase_sort_probed(d_in.data(), out.data(), n);
    INFO(lesson05::dists().name(dist) << ", n = " << n << ", " << count.phases << " phases");
    CHECK(lesson05::sort_mismatch(out.download().data(), lesson05::reference_sort(in)) == "");
    check_compare_and_swaps(count, in);
  }
}

TEST_CASE("phases_for(n) is n, and each launch leaves exactly its phase's result", "[gpu]") {
  // The count of the compare-and-swaps sees which pairs each launch compares, not what else it
  // does: a launch may also write the data, or keep them in a __device__ array of its own. So the
  // sort is made launch by launch here, each launch's result set against the same phase of
  // odd-even transposition made on the CPU, bit for bit; and phases_for(n) must be what odd-even
  // transposition needs: n phases for n >= 3 (a value moves one place a phase at most, and on the
  // reversed input one also loses phases: for odd n the smallest waits a phase before it first
  // moves, for even n the second smallest is pushed the wrong way first), for n = 2 one or two,
  // for n = 1 none or one. Fewer phases sort only if the launches sort some other way.
  const std::uint64_t seed = course::test::seed();
  std::vector<std::size_t> sizes = {1, 2, 3, 4, 33, 512, 513};
  for (std::size_t n : course::test::at_edges(course::test::seed(), 500, {32, 512}, 4, 24000, 4))
    sizes.push_back(n);
  course::test::drawn_sizes(seed, sizes, {}, 0, 0, "phases_for n");
  for (std::size_t n : sizes) {
    const std::size_t phases = grading05::phases_for(n);
    const std::size_t least = n >= 3 ? n : n - 1;
    INFO("phases_for(" << n << ") is " << phases << "; odd-even transposition needs " << least
                       << " phases to sort every input of " << n << " floats, and " << n
                       << " are enough");
    CHECK(phases >= least);
    CHECK(phases <= n);
  }
  // Launch by launch, at sizes that keep the copies back cheap (a few thousand launches at most).
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    const std::size_t n = sizes[s];
    if (n > 4096) continue;
    const lesson05::Dist dist = kDists[course::test::drawn(seed, 600 + s) % 7];
    const std::vector<float> in = lesson05::make_input(n, dist, seed + n);
    INFO(lesson05::dists().name(dist)
         << ", n = " << n << ": each launch is one phase of odd-even transposition");
    CHECK(grading05::phases_step_by_step(in) == "");
  }
}

TEST_CASE("timing: a sort of about 4,600 floats, one launch per phase", "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR in the lesson's
  // CMakeLists.txt). The model answer's time is the launches' (about 3.5 us each on the H100, one
  // per phase: some 16 ms); one thread or one block doing a phase's pairs, or phases done again,
  // takes several times as long.
  const std::uint64_t seed = course::test::seed();
  const std::size_t n = 4097 + 2 * (course::test::drawn(seed, 400) % 512);
  const std::vector<float> in = lesson05::make_input(n, lesson05::Dist::uniform, seed);
  const course::DeviceBuffer<float> d_in(in);
  course::DeviceBuffer<float> out(n);
  course::test::report_time([&] { grading05::phase_sort(d_in.data(), out.data(), n); });
  REQUIRE(lesson05::sort_mismatch(out.download().data(), lesson05::reference_sort(in)) == "");
}

TEST_CASE("the same input sorted again and again, as the clock sorts it, every sort checked",
          "[gpu]") {
  // The timing case sorts one input ten times in a row, unprobed. Here an input of a size the clock
  // might time is sorted twelve times in a row, each sort probed or made launch by launch: no
  // place in a streak of sorts of one n is a cue for sorting some other way.
  const std::uint64_t seed = course::test::seed();
  const std::size_t n = 4097 + 2 * (course::test::drawn(seed, 410) % 512);
  const std::vector<float> in = lesson05::make_input(n, lesson05::Dist::uniform, seed + 410);
  for (int pair = 0; pair < 6; ++pair) {
    INFO("n = " << n << ", sorts " << 2 * pair + 1 << " and " << 2 * pair + 2 << " of it in a row");
    if (!check_sort(in, seed + 410 + pair)) return;
  }
}
