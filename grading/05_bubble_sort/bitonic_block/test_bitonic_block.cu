// Grades exercise 4 of lesson 05: bitonic_sort_shared (bitonic_block.cuh), against std::sort in
// totalOrder, bit for bit, on every input of the lesson at sizes from 1 to 8192 (the edges of a
// warp, of a power of two and sizes drawn from the run's seed), run after run; and a log of its
// compare-and-swaps checks the technique at every power of two from 2 to 8192, on inputs drawn
// from the seed: they must be exactly Batcher's network, pair for pair and in the direction of
// each pair, whatever order the threads make them in within a step, and every step must end
// before the next begins (some warps sleep before each compare-and-swap, so a warp that does not
// wait runs ahead of them, and the log shows it), in a launch of one block and in one block of
// launches of many. The [timing] case sorts thousands of blocks at
// once for scripts/time_answer.py. Fresh random inputs each run (the seed is printed).
#include <algorithm>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "bitonic_block_harness.hpp"
#include "reference.hpp"
#include "sort_check.cuh"
#include "testing.hpp"

namespace {

using Pair = std::pair<unsigned, unsigned>;

const lesson05::Dist kDists[] = {
    lesson05::Dist::perm, lesson05::Dist::uniform, lesson05::Dist::sorted, lesson05::Dist::reversed,
    lesson05::Dist::dups, lesson05::Dist::zeros,   lesson05::Dist::special};

// Batcher's network on `size` places, step by step (stages k = 2, 4, ..., size; in each, steps
// j = k/2, ..., 1): every compare-and-swap as (the place that gets the smaller, the place that
// gets the larger), each step's sorted.
struct Step {
  unsigned k, j;
  std::vector<Pair> pairs;
};
std::vector<Step> batchers_steps(unsigned size) {
  std::vector<Step> steps;
  for (unsigned k = 2; k <= size; k *= 2) {
    for (unsigned j = k / 2; j > 0; j /= 2) {
      Step step{k, j, {}};
      for (unsigned x = 0; x < size; ++x) {
        if ((x & j) != 0) continue;
        if ((x & k) == 0) {
          step.pairs.emplace_back(x, x + j);
        } else {
          step.pairs.emplace_back(x + j, x);
        }
      }
      std::sort(step.pairs.begin(), step.pairs.end());
      steps.push_back(step);
    }
  }
  return steps;
}

// "" when every call of each step was made before any call of the steps after it; otherwise the
// first call that came early. `calls` are in the order they were made; a call that is in no step
// of the network is left to the check of the pairs.
std::string steps_in_order(const std::vector<Pair>& calls, const std::vector<Step>& steps) {
  std::map<Pair, bool> in_network;
  for (const Step& s : steps) {
    for (const Pair& p : s.pairs)
      in_network[p] = true;
  }
  std::size_t step = 0;
  std::map<Pair, unsigned> left;  // the calls the current step has still to make
  std::size_t left_count = 0;
  for (std::size_t c = 0; c < calls.size(); ++c) {
    while (left_count == 0 && step < steps.size()) {
      left.clear();
      for (const Pair& p : steps[step].pairs)
        ++left[p];
      left_count = steps[step].pairs.size();
      if (left_count == 0) ++step;
    }
    if (step >= steps.size() || in_network.count(calls[c]) == 0) continue;
    const auto it = left.find(calls[c]);
    if (it == left.end() || it->second == 0) {
      std::ostringstream out;
      out << "compare-and-swap " << c << " of " << calls.size() << ", places " << calls[c].first
          << " and " << calls[c].second << ", was made while the step j = " << steps[step].j
          << " of stage k = " << steps[step].k << " had " << left_count
          << " compare-and-swaps still to make";
      return out.str();
    }
    --it->second;
    if (--left_count == 0) ++step;
  }
  return "";
}

void sort_block(const float* a, float* b, std::size_t m) {
  grading05::bitonic_block_sort(a, b, m);
}

// The logged run against Batcher's network on `size` places: every pair and direction, each
// step's calls before the next step's, and the result sorted.
void check_network(const grading05::NetworkRun& run, const std::vector<float>& in, unsigned size,
                   const std::string& what) {
  const std::vector<Step> steps = batchers_steps(size);
  std::vector<Pair> got = run.calls;
  std::sort(got.begin(), got.end());
  std::vector<Pair> expected;
  for (const Step& step : steps)
    expected.insert(expected.end(), step.pairs.begin(), step.pairs.end());
  std::sort(expected.begin(), expected.end());
  std::vector<Pair> extra;
  std::set_difference(got.begin(), got.end(), expected.begin(), expected.end(),
                      std::back_inserter(extra));
  std::vector<Pair> lacking;
  std::set_difference(expected.begin(), expected.end(), got.begin(), got.end(),
                      std::back_inserter(lacking));
  const std::size_t missing = lacking.size();
  INFO(size << " places (" << what << "): " << got.size()
            << " compare-and-swaps, Batcher's network has " << expected.size() << "; "
            << extra.size() << " not in the network (" << (extra.empty() ? 0u : extra[0].first)
            << " against " << (extra.empty() ? 0u : extra[0].second) << " first), " << missing
            << " of the network's missing");
  CHECK(extra.empty());
  CHECK(missing == 0);
  INFO("a barrier after every step: each step's compare-and-swaps all before the next step's");
  CHECK(steps_in_order(run.calls, steps) == "");
  INFO("what the network left, against std::sort");
  CHECK(lesson05::sort_mismatch(run.out.data(), lesson05::reference_sort(in)) == "");
}

}  // namespace

TEST_CASE("the bitonic block sort sorts every input, at every size up to a block's", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  // The edges of a warp and of powers of two (the harness pads to the next one, and its block has
  // size / 2 threads, 32 to 1024), and sizes drawn from the seed at those edges.
  const std::vector<std::size_t> sizes = course::test::drawn_sizes(
      seed, {1, 2, 3, 31, 32, 33, 63, 65, 1000, 1023, 1024, 1025, 4095, 4097, 8191, 8192},
      {32, 256, 1024}, 8192, 4, "n");
  for (lesson05::Dist dist : kDists) {
    for (std::size_t n : sizes) {
      const std::vector<float> in = lesson05::make_input(n, dist, seed + n);
      INFO(lesson05::dists().name(dist) << ", n = " << n);
      CHECK(lesson05::test::sorted_by(sort_block, in, lesson05::reference_sort(in)) == "");
    }
  }
  const std::size_t again =
      course::test::at_edges(course::test::seed(), 100, {1024}, 4096, 8192, 1)[0];
  for (std::size_t n : {std::size_t{8192}, again}) {
    const std::vector<float> in = lesson05::make_input(n, lesson05::Dist::special, seed);
    const std::vector<float> expected = lesson05::reference_sort(in);
    for (int run = 0; run < 5; ++run) {
      INFO("special, n = " << n << ", run " << run);
      CHECK(lesson05::test::sorted_by(sort_block, in, expected) == "");
    }
  }
}

TEST_CASE("the compare-and-swaps are Batcher's network, pair for pair", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (unsigned size = 2; size <= grading05::kBitonicBlockMax; size *= 2) {
    // An input drawn from the seed, so the network cannot know it is being watched.
    const lesson05::Dist dist = kDists[course::test::drawn(seed, 200 + size) % 7];
    const std::vector<float> in = lesson05::make_input(size, dist, seed + size);
    const grading05::NetworkRun run = grading05::bitonic_block_network(
        in, static_cast<unsigned>(course::test::drawn(seed, 300 + size) % 3));
    check_network(run, in, size, lesson05::dists().name(dist));
  }
}

TEST_CASE("every block of a launch of many makes Batcher's network", "[gpu]") {
  // A network that knows it has the GPU to itself (one block) could make another network when it
  // has not: so one block, drawn from the seed, of a launch of many is logged too, at a size
  // drawn from the seed with a number of blocks drawn from the seed, and at 8192 places with as
  // many blocks as the timed launch.
  const std::uint64_t seed = course::test::seed();
  const unsigned small = 4u << (course::test::drawn(seed, 800) % 11);  // 4 to 4096
  const std::size_t timed_blocks = 8192 + course::test::drawn(seed, 400) % 512;
  const std::pair<unsigned, std::size_t> launches[] = {
      {small, 2 + course::test::drawn(seed, 801) % 1000},
      {static_cast<unsigned>(grading05::kBitonicBlockMax), timed_blocks}};
  for (std::size_t l = 0; l < 2; ++l) {
    const unsigned size = launches[l].first;
    const std::size_t blocks = launches[l].second;
    const std::size_t logged = course::test::drawn(seed, 810 + l) % blocks;
    const std::vector<float> in =
        lesson05::make_input(blocks * size, lesson05::Dist::uniform, seed + 820 + l);
    const grading05::NetworkRun run = grading05::bitonic_blocks_network(
        in, size, static_cast<unsigned>(course::test::drawn(seed, 830 + l) % 3), logged);
    const std::vector<float> block(in.begin() + logged * size, in.begin() + (logged + 1) * size);
    std::ostringstream what;
    what << "block " << logged << " of a launch of " << blocks;
    check_network(run, block, size, what.str());
  }
}

TEST_CASE("timing: thousands of blocks of 8192 floats at once", "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR in the lesson's
  // CMakeLists.txt): about 8,400 blocks, two on each SM of the H100 at a time, each making the
  // network's 91 steps of 4,096 compare-and-swaps with 1,024 threads (a few ms in all). One thread,
  // or one warp, making a block's compare-and-swaps takes ten times as long or more. A sample of
  // the blocks is checked afterwards.
  const std::uint64_t seed = course::test::seed();
  const std::size_t blocks = 8192 + course::test::drawn(seed, 400) % 512;
  const std::size_t per_block = grading05::kBitonicBlockMax;
  const std::vector<float> in =
      lesson05::make_input(blocks * per_block, lesson05::Dist::uniform, seed);
  const course::DeviceBuffer<float> d_in(in);
  course::DeviceBuffer<float> d_out(blocks * per_block);
  course::test::report_time(
      [&] { grading05::bitonic_blocks_sort(d_in.data(), d_out.data(), blocks); });
  const std::vector<float> out = d_out.download();
  for (int sample = 0; sample < 16; ++sample) {
    const std::size_t b = course::test::drawn(seed, 500 + sample) % blocks;
    const std::vector<float> block(in.begin() + b * per_block, in.begin() + (b + 1) * per_block);
    INFO("block " << b << " of " << blocks);
    REQUIRE(lesson05::sort_mismatch(out.data() + b * per_block, lesson05::reference_sort(block)) ==
            "");
  }
}
