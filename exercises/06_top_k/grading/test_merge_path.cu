// Grades exercise 2 of lesson 06: merged_at (merge_path.cuh). Thousands of pairs of descending
// lists with many duplicates, for k from 1 to 1024, against std::merge on the CPU; and lists that
// count their reads check the technique: each output place found with O(log k) reads, 2 ceil(log2(k
// + 1))
// + 4 at most, where a walk from the start of the lists takes up to 2k. Fresh random inputs each
// run (the seed is printed).
#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "device_memory.hpp"
#include "merge_path_harness.hpp"
#include "testing.hpp"

namespace {

struct Lists {
  std::vector<std::uint32_t> a, b, expected;
};

// `pairs` pairs of descending lists of k keys below `range`; some with all of b above all of a, or
// the other way round.
Lists make_lists(int k, std::size_t pairs, unsigned range, std::mt19937_64& rng) {
  Lists l{std::vector<std::uint32_t>(pairs * k), std::vector<std::uint32_t>(pairs * k),
          std::vector<std::uint32_t>(pairs * k)};
  for (std::size_t p = 0; p < pairs; ++p) {
    const std::uint32_t shift_a = p % 3 == 1 ? 1u << 20 : 0u;
    const std::uint32_t shift_b = p % 3 == 2 ? 1u << 20 : 0u;
    for (int i = 0; i < k; ++i) {
      l.a[p * k + i] = static_cast<std::uint32_t>(rng() % range) / 2 + shift_a;
      l.b[p * k + i] = static_cast<std::uint32_t>(rng() % range) / 2 + shift_b;
    }
    const auto a = l.a.begin() + p * k;
    const auto b = l.b.begin() + p * k;
    std::sort(a, a + k, std::greater<std::uint32_t>());
    std::sort(b, b + k, std::greater<std::uint32_t>());
    std::vector<std::uint32_t> both(2 * k);
    std::merge(a, a + k, b, b + k, both.begin(), std::greater<std::uint32_t>());
    std::copy(both.begin(), both.begin() + k, l.expected.begin() + p * k);
  }
  return l;
}

}  // namespace

TEST_CASE("merged_at gives every place of the merge of two descending lists", "[gpu]") {
  std::mt19937_64 rng(course::test::seed());
  for (int k : {1, 2, 3, 7, 32, 33, 100, 300, 1024}) {
    for (unsigned range : {4u, 1000u, 0xFFFFFFFFu}) {  // many duplicates, some, almost none
      const std::size_t pairs = k < 300 ? 1000 : 100;
      const Lists l = make_lists(k, pairs, range, rng);
      const course::DeviceBuffer<std::uint32_t> d_a(l.a);
      const course::DeviceBuffer<std::uint32_t> d_b(l.b);
      course::test::GuardedBuffer<std::uint32_t> out(pairs * k);
      out.poison(0x5A);
      grading06::merge_lists(d_a.data(), d_b.data(), k, pairs, out.data());
      INFO("k = " << k << ", keys below " << range);
      REQUIRE(out.guards_intact());
      CHECK(course::test::mismatch(out.download(), l.expected) == "");
    }
  }
}

TEST_CASE("each place is found with O(log k) reads", "[gpu]") {
  std::mt19937_64 rng(course::test::seed());
  for (int k : {7, 100, 1024}) {
    const std::size_t pairs = 64;
    const Lists l = make_lists(k, pairs, 1000, rng);
    const course::DeviceBuffer<std::uint32_t> d_a(l.a);
    const course::DeviceBuffer<std::uint32_t> d_b(l.b);
    course::DeviceBuffer<std::uint32_t> out(pairs * k);
    course::DeviceBuffer<unsigned> reads(pairs * k);
    grading06::merge_lists(d_a.data(), d_b.data(), k, pairs, out.data(), reads.data());
    REQUIRE(course::test::mismatch(out.download(), l.expected) == "");
    const std::vector<unsigned> counted = reads.download();
    const unsigned most = 2 * static_cast<unsigned>(std::ceil(std::log2(k + 1.0))) + 4;
    const unsigned got = *std::max_element(counted.begin(), counted.end());
    INFO("k = " << k << ": the most keys one place read was " << got << "; a binary search needs "
                << "at most " << most << " reads");
    CHECK(got <= most);
  }
}
