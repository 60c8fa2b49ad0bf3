// Grades exercise 2 of lesson 06: merged_at (merge_path.cuh). Thousands of pairs of descending
// lists, for k at the edges of a warp and a block and drawn from the run's seed, with keys from
// four or a thousand values to the whole 32 bits and its ends (0 and 0xFFFFFFFF), one list all
// above the other or both mixed, against std::merge on the CPU; and lists that count their reads
// check the technique: each output place found with O(log k) reads, 2 ceil(log2(k + 1)) + 4 at
// most, where a walk from the start of the lists takes up to 2k, on both kinds of counted list
// (an answer cannot tell them by their type). The [timing] case merges on the keys themselves, at
// k = 1024, for scripts/time_answer.py: a walk there is many times slower. Fresh random inputs each
// run (the seed is printed).
#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "device_memory.hpp"
#include "inputs.hpp"
#include "merge_path_harness.hpp"
#include "testing.hpp"

namespace {

struct Lists {
  std::vector<std::uint32_t> a, b, expected;
};

// The keys: 0 to 3 (many duplicates), below 1000 (some), any 32 bits (almost none), or the ends
// of the range and its middle (0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF).
enum class Keys { four, thousand, any, ends };
const char* name(Keys keys) {
  switch (keys) {
    case Keys::four:
      return "keys below 4";
    case Keys::thousand:
      return "keys below 1000";
    case Keys::any:
      return "any 32-bit keys";
    default:
      return "keys at the ends of the range";
  }
}

std::uint32_t draw_key(Keys keys, std::mt19937_64& rng) {
  static const std::uint32_t ends[] = {0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu};
  switch (keys) {
    case Keys::four:
      return static_cast<std::uint32_t>(rng() % 4);
    case Keys::thousand:
      return static_cast<std::uint32_t>(rng() % 1000);
    case Keys::any:
      return static_cast<std::uint32_t>(rng());
    default:
      return ends[rng() % 6];
  }
}

// `pairs` pairs of descending lists of k keys: of every three, one with the 2k keys dealt at
// random, one with all of a above all of b, one the other way round.
Lists make_lists(int k, std::size_t pairs, Keys keys, std::mt19937_64& rng) {
  Lists l{std::vector<std::uint32_t>(pairs * k), std::vector<std::uint32_t>(pairs * k),
          std::vector<std::uint32_t>(pairs * k)};
  std::vector<std::uint32_t> both(2 * k);
  for (std::size_t p = 0; p < pairs; ++p) {
    for (std::uint32_t& key : both)
      key = draw_key(keys, rng);
    if (p % 3 == 0) {
      std::shuffle(both.begin(), both.end(), rng);
    } else {
      std::sort(both.begin(), both.end(), std::greater<std::uint32_t>());
      if (p % 3 == 2) std::rotate(both.begin(), both.begin() + k, both.end());  // b above a
    }
    const auto a = l.a.begin() + p * k;
    const auto b = l.b.begin() + p * k;
    std::copy(both.begin(), both.begin() + k, a);
    std::copy(both.begin() + k, both.end(), b);
    std::sort(a, a + k, std::greater<std::uint32_t>());
    std::sort(b, b + k, std::greater<std::uint32_t>());
    std::vector<std::uint32_t> merged(2 * k);
    std::merge(a, a + k, b, b + k, merged.begin(), std::greater<std::uint32_t>());
    std::copy(merged.begin(), merged.begin() + k, l.expected.begin() + p * k);
  }
  return l;
}

const Keys kAllKeys[] = {Keys::four, Keys::thousand, Keys::any, Keys::ends};

}  // namespace

TEST_CASE("merged_at gives every place of the merge of two descending lists", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  std::mt19937_64 rng(seed);
  std::vector<std::size_t> ks = {1, 2, 3, 7, 31, 32, 33, 63, 64, 65, 100, 300, 1023, 1024};
  for (std::size_t k : course::test::at_edges(course::test::seed(), 100, {32, 64, 128}, 1, 1024, 2))
    ks.push_back(k);
  course::test::drawn_sizes(seed, ks, {}, 0, 0, "k");
  for (std::size_t k : ks) {
    for (Keys keys : kAllKeys) {
      const std::size_t pairs = k < 300 ? 1000 : 100;
      const Lists l = make_lists(static_cast<int>(k), pairs, keys, rng);
      const course::DeviceBuffer<std::uint32_t> d_a(l.a);
      const course::DeviceBuffer<std::uint32_t> d_b(l.b);
      course::test::GuardedBuffer<std::uint32_t> out(pairs * k);
      out.poison(0x5A);
      grading06::merge_lists(d_a.data(), d_b.data(), static_cast<int>(k), pairs, out.data());
      INFO("k = " << k << ", " << name(keys));
      REQUIRE(out.guards_intact());
      CHECK(course::test::mismatch(out.download(), l.expected) == "");
    }
  }
}

TEST_CASE("each place is found with O(log k) reads", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  std::mt19937_64 rng(seed + 1);
  std::vector<std::size_t> ks = {1, 33, 1000, 1024};
  for (std::size_t k : course::test::at_edges(course::test::seed(), 200, {32, 64}, 2, 1024, 2))
    ks.push_back(k);
  course::test::drawn_sizes(seed, ks, {}, 0, 0, "counted k");
  for (std::size_t s = 0; s < ks.size(); ++s) {
    const int k = static_cast<int>(ks[s]);
    const Keys keys = kAllKeys[course::test::drawn(seed, 300 + s) % 4];
    for (grading06::ListKind kind : {grading06::ListKind::counting, grading06::ListKind::tally}) {
      const std::size_t pairs = 64;
      const Lists l = make_lists(k, pairs, keys, rng);
      const course::DeviceBuffer<std::uint32_t> d_a(l.a);
      const course::DeviceBuffer<std::uint32_t> d_b(l.b);
      course::DeviceBuffer<std::uint32_t> out(pairs * k);
      course::DeviceBuffer<unsigned> reads(pairs * k);
      grading06::merge_lists(d_a.data(), d_b.data(), k, pairs, out.data(), reads.data(), kind);
      INFO("k = " << k << ", " << name(keys) << ", the "
                  << (kind == grading06::ListKind::counting ? "first" : "second")
                  << " kind of counted list");
      REQUIRE(course::test::mismatch(out.download(), l.expected) == "");
      const std::vector<unsigned> counted = reads.download();
      const unsigned most = 2 * static_cast<unsigned>(std::ceil(std::log2(k + 1.0))) + 4;
      const unsigned got = *std::max_element(counted.begin(), counted.end());
      INFO("k = " << k << ": the most keys one place read was " << got
                  << "; a binary search needs at most " << most << " reads");
      CHECK(got <= most);
      const unsigned fewest = *std::min_element(counted.begin(), counted.end());
      INFO("k = " << k << ": the fewest keys one place read was " << fewest
                  << "; every place reads a key of its lists at least (its key is one of them)");
      CHECK(fewest >= 1);
    }
  }
}

TEST_CASE("timing: about 65,000 pairs of lists of 1024 keys", "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR in the lesson's
  // CMakeLists.txt), on the keys themselves (const Key*, the kind no probe counts): 1024 threads a
  // pair, each place found in about 11 steps of its search (about 1 ms on the H100, the lists'
  // 768 MB read and written included). A walk from the start of the lists, 512 steps a place on
  // average, takes ten times as long or more. A sample of the pairs is checked afterwards.
  const std::uint64_t seed = course::test::seed();
  const int k = 1024;
  const std::size_t pairs = 65536 + course::test::drawn(seed, 400) % 4096;
  std::vector<std::uint32_t> a(pairs * k), b(pairs * k);
  course::parallel_for(pairs, [&](std::size_t begin, std::size_t end) {
    for (std::size_t p = begin; p < end; ++p) {  // descending: random steps down from the top
      std::uint32_t next_a =
          0xFFFFFFFFu - static_cast<std::uint32_t>(course::test::drawn(seed, 2 * p) % 4096);
      std::uint32_t next_b =
          0xFFFFFFFFu - static_cast<std::uint32_t>(course::test::drawn(seed, 2 * p + 1) % 4096);
      for (int i = 0; i < k; ++i) {
        const std::uint64_t r = course::test::drawn(seed + 1, p * k + i);
        a[p * k + i] = next_a;
        b[p * k + i] = next_b;
        next_a -= static_cast<std::uint32_t>(r % 8);
        next_b -= static_cast<std::uint32_t>((r >> 8) % 8);
      }
    }
  });
  // Every call, the warm-up's too, merges lists of its own (all keys lowered by 2^20 a call, still
  // descending), and a sample of each call's pairs is checked once it is done: an answer that
  // replays what it found on the warm-up's lists returns wrong keys.
  course::DeviceBuffer<std::uint32_t> d_a(a.size());
  course::DeviceBuffer<std::uint32_t> d_b(b.size());
  course::DeviceBuffer<std::uint32_t> d_out(pairs * k);
  std::uint32_t lowered = 0;
  int calls = 0;
  const auto check_sample = [&] {
    const std::vector<std::uint32_t> out = d_out.download();
    for (int sample = 0; sample < 16; ++sample) {
      const std::size_t p = course::test::drawn(seed, 500 + 16 * calls + sample) % pairs;
      std::vector<std::uint32_t> merged(2 * k);
      std::merge(a.begin() + p * k, a.begin() + (p + 1) * k, b.begin() + p * k,
                 b.begin() + (p + 1) * k, merged.begin(), std::greater<std::uint32_t>());
      merged.resize(k);
      for (std::uint32_t& key : merged)
        key -= lowered;
      const std::vector<std::uint32_t> got(out.begin() + p * k, out.begin() + (p + 1) * k);
      INFO("call " << calls << ", pair " << p << " of " << pairs);
      REQUIRE(course::test::mismatch(got, merged) == "");
    }
  };
  const auto next_lists = [&] {
    if (calls > 0) check_sample();
    lowered = static_cast<std::uint32_t>(calls) << 20;
    std::vector<std::uint32_t> shifted(a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
      shifted[i] = a[i] - lowered;
    d_a.upload(shifted.data(), shifted.size());
    for (std::size_t i = 0; i < b.size(); ++i)
      shifted[i] = b[i] - lowered;
    d_b.upload(shifted.data(), shifted.size());
    ++calls;
  };
  course::test::report_time(
      [&] { grading06::merge_lists(d_a.data(), d_b.data(), k, pairs, d_out.data()); }, 9,
      next_lists);
  check_sample();
}
