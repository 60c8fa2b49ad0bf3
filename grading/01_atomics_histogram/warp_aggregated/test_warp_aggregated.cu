// Grades exercise 3 of lesson 01: warp_aggregated_increment (warp_aggregated.cuh). A probe kernel
// logs every add() the function makes, so the test checks the aggregation itself (one add per
// distinct bin, with the right count, made by a lane that holds the bin), on bins anywhere in the
// 32-bit range and warps in blocks of any size; and the histogram and the timed kernel count the
// function's adds too, so that no way of calling it goes unwatched. Patterns, sizes and block sizes
// come from the run's seed (printed at the start; COURSE_TEST_SEED repeats it).
#include <map>
#include <string>
#include <vector>

#include "launch.hpp"
#include "reference.hpp"
#include "testing.hpp"
#include "warp_aggregated_harness.hpp"

namespace {

using course::test::drawn;
using grading01::kMostAddsLogged;

struct Pattern {
  std::string name;
  std::vector<unsigned int> bins;  // 32, one per lane
  unsigned int active;             // the lanes that call
};

std::vector<Pattern> patterns(std::uint64_t seed) {
  std::vector<Pattern> out;
  auto lanes = [](auto f) {
    std::vector<unsigned int> v(course::kWarpSize);
    for (int l = 0; l < course::kWarpSize; ++l)
      v[l] = f(l);
    return v;
  };
  auto word = [seed](int k) { return static_cast<unsigned int>(drawn(seed, 100 + k)); };
  const unsigned int all = 0xFFFFFFFFu;
  // Four bins, 0 and 0xFFFFFFFF among them, lane by lane at random.
  const unsigned int four[] = {0u, 0xFFFFFFFFu, word(1), word(2) | 1u};
  const auto pick = course::random_ints<unsigned int>(course::kWarpSize, seed, 0, 3);
  const auto random_few = lanes([&](int l) { return four[pick[l]]; });
  const auto random_any =
      course::random_ints<unsigned int>(course::kWarpSize, seed + 1, 0, 0xFFFFFFFFu);
  const auto random_byte = course::random_ints<unsigned int>(course::kWarpSize, seed + 2, 0, 255);
  const unsigned int first = 1 + static_cast<unsigned int>(drawn(seed, 110) % 31);
  const unsigned int last = 1 + static_cast<unsigned int>(drawn(seed, 111) % 31);
  const unsigned int a = word(3), b = word(4) == word(3) ? word(3) ^ 1u : word(4);
  out.push_back({"all lanes the same bin", lanes([&](int) { return word(0); }), all});
  out.push_back(
      {"all lanes different bins", lanes([&](int l) { return word(5) + 7919u * l; }), all});
  out.push_back({"two bins, alternating", lanes([&](int l) { return l % 2 ? a : b; }), all});
  out.push_back({"four bins, 0 and 0xFFFFFFFF among them", random_few, all});
  out.push_back({"random bins below 256", random_byte, all});
  out.push_back({"random 32-bit bins", random_any, all});
  out.push_back({"every lane 0xFFFFFFFF", lanes([](int) { return 0xFFFFFFFFu; }), all});
  out.push_back({"only odd lanes active", random_few, 0xAAAAAAAAu});
  out.push_back(
      {"only the first lanes active", lanes([&](int) { return word(6); }), (1u << first) - 1});
  out.push_back({"only the last lanes active", random_any, ~((1u << (32 - last)) - 1)});
  out.push_back({"one lane active", random_any, 1u << (drawn(seed, 112) % 32)});
  out.push_back({"random lanes active", random_few, word(7) | 1u});
  return out;
}

// The distinct bytes among each warp's 32 (aligned to 32): the adds the histogram's calls need.
unsigned long long distinct_per_warp(const std::vector<std::uint8_t>& data) {
  unsigned long long total = 0;
  for (std::size_t chunk = 0; chunk < data.size(); chunk += course::kWarpSize) {
    bool seen[256] = {};
    for (std::size_t i = chunk; i < data.size() && i < chunk + course::kWarpSize; ++i) {
      total += seen[data[i]] ? 0 : 1;
      seen[data[i]] = true;
    }
  }
  return total;
}

}  // namespace

TEST_CASE("one add per distinct bin, with the number of lanes holding it", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  const std::vector<Pattern> ps = patterns(seed);
  std::vector<unsigned int> bins, active;
  for (const Pattern& p : ps) {
    bins.insert(bins.end(), p.bins.begin(), p.bins.end());
    active.push_back(p.active);
  }
  const course::DeviceBuffer<unsigned int> d_bins(bins);
  const course::DeviceBuffer<unsigned int> d_active(active);
  const auto patterns_count = static_cast<int>(ps.size());
  course::DeviceBuffer<grading01::AddRecord> d_log(ps.size() * kMostAddsLogged);
  course::DeviceBuffer<unsigned int> d_adds(ps.size());
  // Whole warps, and blocks whose last warp is cut short (its missing lanes do not call).
  const std::vector<std::size_t> block_sizes = course::test::drawn_sizes(
      seed, {32, 100}, {32}, 1024, 2, "warp_aggregated threads per block (probe)");
  for (const std::size_t threads : block_sizes) {
    grading01::record_adds(d_bins.data(), d_active.data(), patterns_count,
                           static_cast<int>(threads), d_log.data(), d_adds.data());
    const std::vector<grading01::AddRecord> log = d_log.download();
    const std::vector<unsigned int> adds = d_adds.download();
    for (int w = 0; w < patterns_count; ++w) {
      const unsigned int calling =
          ps[w].active & grading01::existing_lanes(w, static_cast<int>(threads));
      std::map<unsigned int, unsigned int> lanes_with;  // bin: active lanes holding it
      for (int l = 0; l < course::kWarpSize; ++l) {
        if ((calling >> l) & 1u) ++lanes_with[ps[w].bins[l]];
      }
      INFO(ps[w].name << ", in a warp of " << __builtin_popcount(calling) << " calling lanes ("
                      << threads << " threads per block)");
      INFO("adds made: " << adds[w]
                         << "; distinct bins among the calling lanes: " << lanes_with.size());
      CHECK(adds[w] == lanes_with.size());
      std::map<unsigned int, unsigned int> total, made;
      for (unsigned int k = 0; k < adds[w] && k < kMostAddsLogged; ++k) {
        const grading01::AddRecord& r = log[w * kMostAddsLogged + k];
        total[r.bin] += r.count;
        ++made[r.bin];
        const bool holds = r.lane < 32 && ((calling >> r.lane) & 1u) && ps[w].bins[r.lane] == r.bin;
        INFO("an add for bin " << r.bin << " made by lane " << r.lane
                               << ", which must be a calling lane that holds that bin");
        CHECK(holds);
      }
      for (const auto& held : lanes_with) {
        INFO("bin " << held.first << " is held by " << held.second << " active lanes; adds made "
                    << "for it: " << made[held.first] << ", their counts adding up to "
                    << total[held.first]);
        CHECK(made[held.first] == 1u);
        CHECK(total[held.first] == held.second);
      }
      for (const auto& m : made) {
        INFO("adds for bin " << m.first << ", which no calling lane holds: " << m.second);
        CHECK(lanes_with.count(m.first) == 1);
      }
    }
  }
}

TEST_CASE("the warp-aggregated histogram counts exactly, one add per distinct byte a warp",
          "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  const std::vector<std::size_t> sizes = course::test::drawn_sizes(
      seed, {1, 33, 4097, 1000003}, {32, 256, 8192}, 2000000, 2, "warp_aggregated n");
  for (const lesson01::Dist dist : lesson01::dists().all()) {
    for (const std::size_t n : sizes) {
      const std::vector<std::uint8_t> data = lesson01::make_input(n, dist, seed + n);
      const course::DeviceBuffer<std::uint8_t> d_data(data);
      course::test::GuardedBuffer<unsigned long long> bins(256);
      bins.poison(0xEE);
      const unsigned long long adds =
          grading01::warp_aggregated_histogram(d_data.data(), n, bins.data());
      const std::vector<unsigned long long> got = bins.download();
      const lesson01::Histogram expected = lesson01::histogram_cpu_loop(data.data(), n);
      INFO(lesson01::dists().name(dist) << ", n = " << n);
      REQUIRE(bins.guards_intact());
      CHECK(course::test::mismatch(got, expected) == "");
      const unsigned long long needed = distinct_per_warp(data);
      INFO("add() calls: " << adds << "; one per distinct byte in each warp's 32: " << needed);
      CHECK(adds == needed);
    }
  }
}

TEST_CASE("timing: rounds of one or two distinct bins a warp", "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR in the lesson's
  // CMakeLists.txt). Every warp of a full GPU calls the function 8,192 times, with one or two
  // distinct bins a call, from registers (no loads to wait on): the model answer takes one or two
  // rounds a call, a few dozen instructions; an answer that takes a round for each of the 32 lanes,
  // whatever the bins, or compares every lane with every other, takes several times as long.
  const auto key = static_cast<unsigned int>(drawn(course::test::seed(), 60));
  course::DeviceBuffer<unsigned long long> bins(256);
  unsigned long long adds = 0;
  course::test::report_time([&] { adds = grading01::warp_aggregated_rounds(key, bins.data()); });
  const auto warps = static_cast<std::size_t>(grading01::timing_warps());
  std::vector<unsigned long long> expected(256, 0);
  unsigned long long needed = 0;
  for (std::size_t w = 0; w < warps; ++w) {
    for (int r = 0; r < grading01::kTimingRounds; ++r) {
      const grading01::TimingRound t =
          grading01::timing_round(key, static_cast<unsigned int>(w), static_cast<unsigned int>(r));
      const unsigned int below = t.cut < 32 ? t.cut : 32;
      expected[t.below] += below;
      expected[t.rest] += 32 - below;
      needed += (below > 0) + (below < 32);
    }
  }
  REQUIRE(course::test::mismatch(bins.download(), expected) == "");
  INFO("add() calls: " << adds << "; one per distinct bin in each call: " << needed);
  REQUIRE(adds == needed);
}
