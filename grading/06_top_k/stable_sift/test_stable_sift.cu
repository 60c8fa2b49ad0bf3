// Grades exercise 4 of lesson 06: count_tiles and scatter_tiles (stable_sift.cuh). Each tile's
// counts must be right, and the winners and candidates must be exactly the indices a stable
// partition on the CPU gives, in input order, run after run: an append with atomics puts them in
// the threads' order of arrival, which is not. Sizes at the edges of a thread's four keys, a warp's
// 128, a tile's 1024, and drawn from the run's seed; buckets around keys drawn from the seed, and
// all winners, all candidates, or neither, where a block's counts reach 1024 and the offsets pass
// 16 bits. A probe of the scatter's shuffles checks its prefix sum: in every sift check_sift makes
// (not the timed one, nor the one past 2^31 keys), every thread of a full tile makes 5 or more, and
// with shuffles that deliver 1 more than they should, the places change. The [timing] case sifts
// 2^27 keys on the device for scripts/time_answer.py. Fresh random inputs each run (the seed is
// printed).
#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "device_memory.hpp"
#include "reference.hpp"
#include "stable_sift_harness.hpp"
#include "testing.hpp"

namespace {

// The sift on the CPU: the indices of the keys above high, and of those in [low, high], in order.
void partition(const std::vector<lesson06::Key>& keys, lesson06::Key low, lesson06::Key high,
               std::vector<std::uint32_t>& winners, std::vector<std::uint32_t>& candidates) {
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (keys[i] > high) {
      winners.push_back(static_cast<std::uint32_t>(i));
    } else if (keys[i] >= low) {
      candidates.push_back(static_cast<std::uint32_t>(i));
    }
  }
}

// What every thread of a full tile's scatter must do: a prefix sum over its warp by shuffles,
// which takes at least log2(32) = 5 of them (each round at most doubles how many lanes' counts a
// lane has seen, and lane 31 needs all 32). A warp that leaves its sum to one lane, or to shared
// memory, makes fewer.
void check_shuffles(const grading06::Sifted& got, std::size_t n) {
  const std::size_t full_tiles = n / grading06::kTile;
  const std::size_t threads = full_tiles * 256;
  REQUIRE(got.shuffles.size() >= threads);
  std::size_t short_threads = 0;
  unsigned fewest = ~0u;
  for (std::size_t t = 0; t < threads; ++t) {
    short_threads += got.shuffles[t] < 5;
    fewest = std::min(fewest, got.shuffles[t]);
  }
  INFO("scatter_tiles: threads of full tiles that made fewer than 5 shuffles (a warp's prefix sum "
       << "by shuffles takes 5 or more a lane): " << short_threads << " of " << threads
       << " (the fewest: " << (threads ? fewest : 0) << ")");
  CHECK(short_threads == 0);
}

void check_sift(const std::vector<lesson06::Key>& keys, lesson06::Key low, lesson06::Key high,
                const char* what) {
  const std::size_t n = keys.size();
  std::vector<unsigned> tile_winners((n + grading06::kTile - 1) / grading06::kTile, 0);
  std::vector<unsigned> tile_candidates(tile_winners.size(), 0);
  std::vector<std::uint32_t> winners, candidates;
  partition(keys, low, high, winners, candidates);
  for (std::uint32_t i : winners)
    ++tile_winners[i / grading06::kTile];
  for (std::uint32_t i : candidates)
    ++tile_candidates[i / grading06::kTile];
  const course::DeviceBuffer<lesson06::Key> d_keys(keys);
  for (int run = 0; run < 2; ++run) {
    const grading06::Sifted got = grading06::stable_sift(d_keys.data(), n, low, high);
    INFO(what << ", n = " << n << ", keys above " << high << " and in [" << low << ", " << high
              << "], run " << run);
    INFO("each tile's counts of winners and of candidates");
    REQUIRE(course::test::mismatch(got.tile_winners, tile_winners) == "");
    REQUIRE(course::test::mismatch(got.tile_candidates, tile_candidates) == "");
    CHECK(!got.wrote_past_the_end);
    INFO("the winners' indices, in input order");
    CHECK(course::test::mismatch(got.winners, winners) == "");
    INFO("the candidates' indices, in input order");
    CHECK(course::test::mismatch(got.candidates, candidates) == "");
    check_shuffles(got, n);
  }
}

// What sift_on_device left: the totals it returned, and the indices in d_winners and
// d_candidates, against the CPU's stable partition.
void require_sifted_on_device(const std::pair<std::size_t, std::size_t>& totals,
                              const course::DeviceBuffer<std::uint32_t>& d_winners,
                              const course::DeviceBuffer<std::uint32_t>& d_candidates,
                              const std::vector<std::uint32_t>& winners,
                              const std::vector<std::uint32_t>& candidates) {
  REQUIRE(totals.first == winners.size());
  REQUIRE(totals.second == candidates.size());
  std::vector<std::uint32_t> got_winners = d_winners.download();
  std::vector<std::uint32_t> got_candidates = d_candidates.download();
  got_winners.resize(winners.size());
  got_candidates.resize(candidates.size());
  INFO("the winners' indices, in input order");
  REQUIRE(course::test::mismatch(got_winners, winners) == "");
  INFO("the candidates' indices, in input order");
  REQUIRE(course::test::mismatch(got_candidates, candidates) == "");
}

}  // namespace

TEST_CASE("the sift keeps the input order, at every size", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  std::mt19937_64 rng(seed);
  const std::vector<std::size_t> sizes = course::test::drawn_sizes(
      seed, {1, 3, 4, 5, 127, 128, 129, 1023, 1024, 1025, 100003, std::size_t{1} << 22},
      {128, 1024}, 1000000, 3, "n");
  for (lesson06::Dist dist :
       {lesson06::Dist::source, lesson06::Dist::dups, lesson06::Dist::ascending,
        lesson06::Dist::descending, lesson06::Dist::extremes}) {
    for (std::size_t n : sizes) {
      const std::vector<lesson06::Key> keys =
          lesson06::keys_of(lesson06::make_input<std::int32_t>(n, dist, seed + n));
      // A bucket around a random key: some keys above it, some in it, most below.
      std::vector<lesson06::Key> sorted = keys;
      std::sort(sorted.begin(), sorted.end());
      const lesson06::Key low = sorted[rng() % n];
      const lesson06::Key high = std::max(low, sorted[std::min(n - 1, rng() % n)]);
      check_sift(keys, low, high, lesson06::dists().name(dist).c_str());
    }
  }
}

TEST_CASE("all winners, all candidates, and none of either", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  // Every tile's 1024 keys all winners or all candidates (a block's count at its most, 1024, and
  // the offsets past 16 bits), at a fixed size and at one drawn from the seed.
  std::vector<std::size_t> sizes = {300007};
  for (std::size_t n : course::test::at_edges(course::test::seed(), 100, {1024}, 70000, 400000, 1))
    sizes.push_back(n);
  course::test::drawn_sizes(seed, sizes, {}, 0, 0, "all or none n");
  for (std::size_t n : sizes) {
    const std::vector<lesson06::Key> keys =
        lesson06::keys_of(lesson06::make_input<std::int32_t>(n, lesson06::Dist::source, seed + n));
    check_sift(keys, 0, 0xFFFFFFFFu, "every key a candidate");
    check_sift(keys, 0, 0, "every key but the lowest a winner");
    check_sift(keys, 0xFFFFFFFFu, 0xFFFFFFFFu, "nothing above, almost nothing in");
  }
}

TEST_CASE("the scatter's places come through its shuffles", "[gpu]") {
  // The same sift three times: as it is, with every shuffle of the scatter delivering 1 more than
  // it should, and with every shuffle delivering what the neighbouring lane (lane ^ 1) got. A
  // scatter whose threads find their places by a prefix sum made of shuffles writes other places
  // both times; one that shuffles for show while its places come another way (one thread adding up
  // the block's counts in shared memory, say) writes the same ones at least once (a shuffled
  // constant is changed by the first, not by the second). Random keys (about 1 in 8 a winner and 1
  // in 8 a candidate, each tile's counts at most 1024) over a size drawn from the seed.
  const std::uint64_t seed = course::test::seed();
  const std::size_t n = 64 * grading06::kTile + course::test::drawn(seed, 700) % 4096;
  std::vector<lesson06::Key> keys(n);
  std::mt19937_64 rng(seed ^ 0x5C47ull);
  for (lesson06::Key& key : keys)
    key = static_cast<lesson06::Key>(rng() % 800);
  const lesson06::Key low = 600, high = 699;
  std::vector<std::uint32_t> winners, candidates;
  partition(keys, low, high, winners, candidates);
  const course::DeviceBuffer<lesson06::Key> d_keys(keys);
  const grading06::Sifted right = grading06::stable_sift(d_keys.data(), n, low, high);
  INFO("n = " << n << ", keys below 800, above " << high << " and in [" << low << ", " << high
              << "]");
  REQUIRE(course::test::mismatch(right.winners, winners) == "");
  REQUIRE(course::test::mismatch(right.candidates, candidates) == "");
  for (const grading::Tamper tamper : {grading::Tamper::plus_one, grading::Tamper::swap_pairs}) {
    const grading06::Sifted tampered = grading06::stable_sift(d_keys.data(), n, low, high, tamper);
    const bool same = !tampered.wrote_past_the_end && tampered.winners == winners &&
                      tampered.candidates == candidates;
    INFO("places were " << (same ? "the same" : "other places") << " with every shuffle of "
                        << "scatter_tiles delivering "
                        << (tamper == grading::Tamper::plus_one ? "1 more than it should"
                                                                : "what the neighbouring lane got")
                        << ": they must come through the shuffles (each thread's place from a "
                        << "prefix sum over its warp by shuffles)");
    CHECK(!same);
  }
}

TEST_CASE("past 2^31 keys, the tiles far into the input are sifted too, in order", "[gpu]") {
  // The output is 32-bit indices, so the sift must reach every key up to 2^32: a tile's start or
  // an index kept in an int goes negative past 2^31 keys, and those tiles are lost or misplaced.
  // Every key is 0 (neither a winner nor a candidate) but a few winners and candidates, placed on
  // the device, some of them past 2^31; 8 GiB of GPU memory, and the check is left out (with a
  // warning) on a GPU with less free.
  const std::uint64_t seed = course::test::seed();
  const std::size_t n =
      (std::size_t{1} << 31) + (std::size_t{1} << 20) + course::test::drawn(seed, 600) % 4096;
  const course::test::LargeGpuMemory memory(n * sizeof(lesson06::Key) + (std::size_t{512} << 20));
  if (!memory.ok()) {
    WARN("past 2^31 keys: left out, the GPU has " << memory.free_mib() << " MiB free");
    return;
  }
  const lesson06::Key low = 10, high = 100;
  const std::size_t past = std::size_t{1} << 31;
  std::vector<std::pair<std::size_t, lesson06::Key>> placed = {
      {past - 1 - course::test::drawn(seed, 601) % 5000, 1000},
      {past + course::test::drawn(seed, 602) % 1000, 50},
      {past + 1024 + course::test::drawn(seed, 603) % 100000, 1000},
      {past + 200000 + course::test::drawn(seed, 604) % 100000, 50},
      {n - 2, 1000},
      {n - 1, 50}};
  std::sort(placed.begin(), placed.end());
  course::DeviceBuffer<lesson06::Key> d_keys(n);
  d_keys.fill_bytes(0);
  std::vector<std::uint32_t> winners, candidates;
  for (const auto& [place, key] : placed) {
    CUDA_CHECK(cudaMemcpy(d_keys.data() + place, &key, sizeof key, cudaMemcpyHostToDevice));
    (key > high ? winners : candidates).push_back(static_cast<std::uint32_t>(place));
  }
  const std::size_t capacity = 64;
  course::DeviceBuffer<std::uint32_t> d_winners(capacity);
  course::DeviceBuffer<std::uint32_t> d_candidates(capacity);
  const std::pair<std::size_t, std::size_t> totals = grading06::sift_on_device(
      d_keys.data(), n, low, high, d_winners.data(), d_candidates.data(), capacity);
  INFO("n = " << n << "; winners and candidates placed at indices up to " << n - 1);
  require_sifted_on_device(totals, d_winners, d_candidates, winners, candidates);
}

TEST_CASE("timing: a sift of about 2^27 keys", "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR in the lesson's
  // CMakeLists.txt): two reads of 512 MB and the tiles' offsets on the CPU, about a millisecond on
  // the H100, with one key in a hundred a winner and one a candidate. A scatter in which one
  // thread walks its tile's 1024 keys in a row, or a block's threads take turns, takes several
  // times as long. Everything is checked afterwards.
  const std::uint64_t seed = course::test::seed();
  const std::size_t n = (std::size_t{1} << 27) + course::test::drawn(seed, 400) % 1024;
  const std::vector<lesson06::Key> keys =
      lesson06::keys_of(lesson06::make_input<std::int32_t>(n, lesson06::Dist::source, seed));
  std::vector<lesson06::Key> sample(65536);
  for (std::size_t s = 0; s < sample.size(); ++s)
    sample[s] = keys[course::test::drawn(seed, 500 + s) % n];
  std::sort(sample.begin(), sample.end());
  const lesson06::Key low = sample[sample.size() * 98 / 100];
  const lesson06::Key high = sample[sample.size() * 99 / 100];
  std::vector<std::uint32_t> winners, candidates;
  partition(keys, low, high, winners, candidates);
  const std::size_t capacity = 2 * std::max(winners.size(), candidates.size()) + 1024;
  const course::DeviceBuffer<lesson06::Key> d_keys(keys);
  course::DeviceBuffer<std::uint32_t> d_winners(capacity);
  course::DeviceBuffer<std::uint32_t> d_candidates(capacity);
  std::pair<std::size_t, std::size_t> totals;
  course::test::report_time([&] {
    totals = grading06::sift_on_device(d_keys.data(), n, low, high, d_winners.data(),
                                       d_candidates.data(), capacity);
  });
  require_sifted_on_device(totals, d_winners, d_candidates, winners, candidates);
}
