// Grades exercise 3 of lesson 01: warp_aggregated_increment (warp_aggregated.cuh). A probe kernel
// records every add() the function makes, so the test checks the aggregation itself (one add per
// distinct bin, with the right count), not only the histogram it produces. Fresh random patterns
// and inputs each run (the seed is printed).
#include <string>
#include <vector>

#include "launch.hpp"
#include "reference.hpp"
#include "testing.hpp"
#include "warp_aggregated_harness.hpp"

namespace {

using grading01::kProbeBins;

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
  const unsigned int all = 0xFFFFFFFFu;
  const auto random_few = course::random_ints<unsigned int>(course::kWarpSize, seed, 0, 3);
  const auto random_any =
      course::random_ints<unsigned int>(course::kWarpSize, seed + 1, 0, kProbeBins - 1);
  out.push_back({"all lanes the same bin", lanes([](int) { return 77u; }), all});
  out.push_back({"all lanes different bins", lanes([](int l) { return 3u * l; }), all});
  out.push_back({"two bins, alternating", lanes([](int l) { return l % 2 ? 9u : 200u; }), all});
  out.push_back({"four random bins", random_few, all});
  out.push_back({"random bins", random_any, all});
  out.push_back({"only odd lanes active", random_few, 0xAAAAAAAAu});
  out.push_back({"only the first 5 lanes active", lanes([](int) { return 1u; }), 0x1Fu});
  out.push_back({"only the last 7 lanes active", random_any, 0xFE000000u});
  out.push_back({"one lane active", random_any, 1u << (seed % 32)});
  return out;
}

}  // namespace

TEST_CASE("one add per distinct bin, with the number of lanes holding it", "[gpu]") {
  const std::vector<Pattern> ps = patterns(course::test::seed());
  std::vector<unsigned int> bins, active;
  for (const Pattern& p : ps) {
    bins.insert(bins.end(), p.bins.begin(), p.bins.end());
    active.push_back(p.active);
  }
  const course::DeviceBuffer<unsigned int> d_bins(bins);
  const course::DeviceBuffer<unsigned int> d_active(active);
  course::DeviceBuffer<unsigned int> d_totals(ps.size() * kProbeBins);
  course::DeviceBuffer<unsigned int> d_calls(ps.size() * kProbeBins);
  grading01::record_adds(d_bins.data(), d_active.data(), static_cast<int>(ps.size()),
                         d_totals.data(), d_calls.data());
  const std::vector<unsigned int> totals = d_totals.download();
  const std::vector<unsigned int> calls = d_calls.download();

  for (std::size_t w = 0; w < ps.size(); ++w) {
    std::vector<unsigned int> lanes_with(kProbeBins, 0);
    for (int l = 0; l < course::kWarpSize; ++l) {
      if ((ps[w].active >> l) & 1u) ++lanes_with[ps[w].bins[l]];
    }
    for (int b = 0; b < kProbeBins; ++b) {
      INFO(ps[w].name << ": bin " << b << " is held by " << lanes_with[b] << " active lanes");
      INFO("the adds' counts for it add up to " << totals[w * kProbeBins + b]);
      CHECK(totals[w * kProbeBins + b] == lanes_with[b]);
      INFO("adds made for it: " << calls[w * kProbeBins + b]
                                << " (one add per distinct bin, none for a bin nobody holds)");
      CHECK(calls[w * kProbeBins + b] == (lanes_with[b] > 0 ? 1u : 0u));
    }
  }
}

TEST_CASE("the warp-aggregated histogram counts exactly", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (const lesson01::Dist dist : lesson01::dists().all()) {
    for (std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{4097}, std::size_t{1000003},
                          std::size_t{1 + seed % 300000}}) {
      const std::vector<std::uint8_t> data = lesson01::make_input(n, dist, seed + n);
      const course::DeviceBuffer<std::uint8_t> d_data(data);
      course::test::GuardedBuffer<unsigned long long> bins(256);
      bins.poison(0xEE);
      grading01::warp_aggregated_histogram(d_data.data(), n, bins.data());
      const std::vector<unsigned long long> got = bins.download();
      const lesson01::Histogram expected = lesson01::histogram_cpu_loop(data.data(), n);
      INFO(lesson01::dists().name(dist) << ", n = " << n);
      REQUIRE(bins.guards_intact());
      CHECK(course::test::mismatch(got, expected) == "");
    }
  }
}
