// Grades exercise 3 of lesson 04: erase and find (erase.cuh). v4's insert builds the table; the
// student's erase removes a random half of its distinct keys, and is asked too for keys that were
// never inserted (it must change nothing for them); then the student's find must give every
// remaining key its value (its last index), and kNotFound for every erased and every absent key.
// The slots are checked too: each erased key's slot a tombstone, every other slot as it was, no
// slot made empty. Long probe runs (one longer than 2^17 slots, with keys at its end whose home is
// its start), a run that wraps past the table's end, the sentinel key, and
// tables with no empty slot at all, one of them past 65,536 slots (a search that never stops is
// stopped by the watchdog). The sizes are drawn from the seed (printed; COURSE_TEST_SEED repeats
// it).
#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "erase_harness.hpp"
#include "erase_support.cuh"  // exercise04::kTombstone, what erase must leave
#include "kernels.cuh"        // lesson 04's v4 insert builds the tables
#include "reference.hpp"
#include "testing.hpp"

namespace {

grading04::TableView view_of(lesson04::OpenTable& table) {
  const lesson04::OpenView v = table.view();
  return {v.slots, v.capacity, v.empty_key_entry, v.hash};
}

std::vector<std::uint32_t> student_find(lesson04::OpenTable& table,
                                        const std::vector<std::uint32_t>& queries) {
  const course::DeviceBuffer<std::uint32_t> d_queries(queries);
  course::test::GuardedBuffer<std::uint32_t> out(queries.size());
  out.poison(0xA5);
  grading04::find_keys(view_of(table), d_queries.data(), queries.size(), out.data());
  REQUIRE(out.guards_intact());
  return out.download();
}

std::vector<lesson04::Slot> slots_of(lesson04::OpenTable& table) {
  const lesson04::OpenView v = table.view();
  std::vector<lesson04::Slot> slots(v.capacity);
  CUDA_CHECK(cudaMemcpy(slots.data(), v.slots, slots.size() * sizeof(lesson04::Slot),
                        cudaMemcpyDeviceToHost));
  return slots;
}

// Builds a table of `keys` with `slots` slots, erases a random half of its distinct keys with the
// student's erase, together with a quarter as many keys that were never inserted, and checks the
// slots and the student's find. The last `later` keys (distinct from the others) are inserted by a
// second launch, once the others are in place, with their index among those `later` as value: a
// key of them whose home is taken goes to the end of the run there, however long.
void check_erase(const std::vector<std::uint32_t>& keys, std::size_t slots, const std::string& what,
                 lesson04::Hash hash = lesson04::Hash::mixed, std::uint64_t shuffle = 0,
                 std::size_t later = 0) {
  const course::DeviceBuffer<std::uint32_t> d_keys(keys);
  lesson04::OpenTable table(slots, hash);
  const std::size_t first = keys.size() - later;
  lesson04::insert_open(d_keys.data(), first, table, {});
  if (later > 0) lesson04::insert_open(d_keys.data() + first, later, table, {});
  table.throw_if_full();
  lesson04::Map map =
      lesson04::reference_map(std::vector<std::uint32_t>(keys.begin(), keys.begin() + first));
  for (std::size_t j = 0; j < later; ++j)
    map.insert_or_assign(keys[first + j], static_cast<std::uint32_t>(j));

  std::vector<std::uint32_t> distinct;
  for (const auto& entry : map)
    distinct.push_back(entry.first);
  std::sort(distinct.begin(), distinct.end());
  std::mt19937_64 rng(course::test::seed() + shuffle);
  std::shuffle(distinct.begin(), distinct.end(), rng);
  const std::vector<std::uint32_t> erased(distinct.begin(), distinct.begin() + distinct.size() / 2);
  // Keys never inserted, erased among the others: an erase must find them absent and stop.
  const std::vector<std::uint32_t> never = lesson04::make_absent_keys(
      std::max<std::size_t>(1, erased.size() / 4), keys, course::test::seed() ^ (shuffle + 77));
  std::vector<std::uint32_t> to_erase(erased);
  to_erase.insert(to_erase.end(), never.begin(), never.end());
  std::shuffle(to_erase.begin(), to_erase.end(), rng);

  const std::vector<lesson04::Slot> before = slots_of(table);
  const course::DeviceBuffer<std::uint32_t> d_erased(to_erase);
  grading04::erase_keys(view_of(table), d_erased.data(), to_erase.size());
  const std::vector<lesson04::Slot> after = slots_of(table);

  INFO(what << ", n = " << keys.size() << ", " << table.capacity() << " slots, " << erased.size()
            << " keys erased and " << never.size() << " never inserted");
  std::size_t erased_in_slots = 0;
  const std::unordered_set<std::uint32_t> erased_set(erased.begin(), erased.end());
  for (std::uint32_t key : erased) {
    erased_in_slots += key != lesson04::kEmptyKey;
    map.erase(key);
  }
  const auto empty_before =
      static_cast<std::size_t>(std::count(before.begin(), before.end(), lesson04::kEmptySlot));
  const auto empty_after =
      static_cast<std::size_t>(std::count(after.begin(), after.end(), lesson04::kEmptySlot));
  INFO("empty slots: " << empty_before << " before the erases, " << empty_after
                       << " after (an erased key's slot must not become empty)");
  CHECK(empty_after == empty_before);
  const auto tombstones =
      static_cast<std::size_t>(std::count(after.begin(), after.end(), exercise04::kTombstone));
  INFO("tombstones: " << tombstones << " for " << erased_in_slots << " erased keys");
  CHECK(tombstones == erased_in_slots);
  std::size_t changed = 0;
  for (std::size_t s = 0; s < before.size(); ++s) {
    const bool erased_here =
        before[s] != lesson04::kEmptySlot && erased_set.count(lesson04::key_of(before[s])) != 0;
    changed += after[s] != (erased_here ? exercise04::kTombstone : before[s]);
  }
  INFO(changed << " slots are not what they should be: each erased key's slot a tombstone, every "
                  "other slot as it was (an erase of a key that is not there changes nothing)");
  CHECK(changed == 0);
  INFO("find of every key inserted: the erased ones must be absent, the others found");
  CHECK(course::test::mismatch(student_find(table, keys), lesson04::reference_find(map, keys)) ==
        "");
  const std::vector<std::uint32_t> absent =
      lesson04::make_absent_keys(keys.size(), keys, course::test::seed());
  INFO("find of keys never inserted");
  CHECK(course::test::mismatch(student_find(table, absent),
                               std::vector<std::uint32_t>(absent.size(), lesson04::kNotFound)) ==
        "");
  // A find only reads: the slots after all those finds are what the erases left.
  const std::vector<lesson04::Slot> after_finds = slots_of(table);
  std::size_t changed_by_finds = 0;
  for (std::size_t s = 0; s < after.size(); ++s)
    changed_by_finds += after_finds[s] != after[s];
  INFO(changed_by_finds << " slots changed by the finds (a find only reads the table)");
  CHECK(changed_by_finds == 0);
}

// `slots` distinct keys: a table of exactly that many slots has no empty one.
std::vector<std::uint32_t> filling_keys(std::size_t slots) {
  std::vector<std::uint32_t> all(slots);
  for (std::size_t i = 0; i < slots; ++i)
    all[i] = static_cast<std::uint32_t>(i * 2654435761u);  // an odd multiplier: distinct
  return all;
}

}  // namespace

TEST_CASE("erased keys are gone, the others found, at every size", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  const std::vector<std::size_t> sizes =
      course::test::drawn_sizes(seed, {1, 2, 31, 33, 255, 257, 4097, 1000003}, {32, 256, 4096},
                                std::size_t{1} << 18, 3, "keys");
  for (std::size_t n : sizes) {
    for (lesson04::Dist dist : {lesson04::Dist::random, lesson04::Dist::dups}) {
      check_erase(lesson04::make_keys(n, dist, seed + n), lesson04::capacity_for(n, 0.5),
                  lesson04::dists().name(dist));
    }
  }
  // A full table's runs are long: an erased slot that turned empty would cut many of them.
  const std::size_t n =
      course::test::drawn_in(course::test::seed(), 4000, 80001, 40000, "keys at load 0.9");
  check_erase(lesson04::make_keys(n, lesson04::Dist::random, seed), lesson04::capacity_for(n, 0.9),
              "random, load 0.9");
}

TEST_CASE("long probe runs, and the sentinel key kept beside the slots", "[gpu]") {
  const std::size_t slots = 4096;  // a multiple of kMaxWindow: the capacity is exactly this
  const std::size_t run =
      course::test::drawn_in(course::test::seed(), 4010, 2500, 1000, "keys in one run");
  std::vector<std::uint32_t> colliding(run);
  for (std::size_t i = 0; i < colliding.size(); ++i)
    colliding[i] = static_cast<std::uint32_t>((i + 1) * slots);  // with key % slots, all at 0
  check_erase(colliding, slots, "one run of colliding keys", lesson04::Hash::book);
  // With key % slots, all at slot slots - 100: the run goes past the end and on from slot 0.
  std::vector<std::uint32_t> wrapping(run);
  for (std::size_t i = 0; i < wrapping.size(); ++i)
    wrapping[i] = static_cast<std::uint32_t>(i * slots + slots - 100);
  check_erase(wrapping, slots, "one run that wraps past the last slot", lesson04::Hash::book);
  // A run longer than 2^17 slots, a probe limit of its own would stop short in: keys whose homes
  // (key % capacity) are consecutive fill it, one at its home each, from a slot drawn from the
  // seed, wrapping past the last slot if it comes to it; then a few keys whose home is the run's
  // first slot go to its end, a probe of the whole run and more. Half of them are erased, the
  // others must be found.
  {
    const std::size_t length = course::test::drawn_in(course::test::seed(), 4012, (1 << 17) + 4096,
                                                      1 << 17, "slots in one long run");
    // Four times the run's slots, a whole number of v5's windows: most of the table empty.
    const auto window = static_cast<std::size_t>(lesson04::kMaxWindow);
    const std::size_t capacity = (4 * length + window - 1) / window * window;
    const std::size_t start = course::test::drawn(course::test::seed(), 4013) % capacity;
    const std::size_t base = 1 + course::test::drawn(course::test::seed(), 4014) % 64;
    const std::size_t enders = 4 + course::test::drawn(course::test::seed(), 4015) % 13;
    std::vector<std::uint32_t> long_run;
    for (std::size_t i = 0; i < length; ++i)  // home (start + i) % capacity, each its own
      long_run.push_back(static_cast<std::uint32_t>(base * capacity + (start + i) % capacity));
    for (std::size_t j = 0; j < enders; ++j)  // home start, placed after the whole run
      long_run.push_back(static_cast<std::uint32_t>((base + 1 + j) * capacity + start));
    check_erase(long_run, capacity,
                "keys at the end of a run of " + std::to_string(length) +
                    " slots (more than 2^17), a probe of the whole run",
                lesson04::Hash::book, 5, enders);
  }
  std::vector<std::uint32_t> keys =
      lesson04::make_keys(course::test::drawn_in(course::test::seed(), 4011, 9001, 2048, "keys"),
                          lesson04::Dist::random, course::test::seed());
  keys[17] = lesson04::kEmptyKey;
  keys[9000] = lesson04::kEmptyKey;
  for (std::uint64_t s = 0; s < 4; ++s) {  // a random half: sometimes the sentinel is erased
    check_erase(keys, lesson04::capacity_for(keys.size(), 0.5), "with the sentinel key",
                lesson04::Hash::mixed, s);
  }
}

TEST_CASE("a table with no empty slot: erase, then find stops", "[gpu]") {
  check_erase(filling_keys(4096), 4096, "no empty slot");
  // Past 65,536 slots, where a 16-bit count of probes never reaches the table's size.
  const std::size_t slots = 16 * course::test::drawn_in(course::test::seed(), 4020, 4097, 4096,
                                                        "slots / 16, no empty slot");
  check_erase(filling_keys(slots), slots, "no empty slot, past 65,536 slots");
}

TEST_CASE("timing: about 2^20 keys at load 0.5, 2^16 erased, 2^21 finds", "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR 5 in the lesson's
  // CMakeLists.txt): the table built again with v4's insert off the clock, then the student's
  // erase of 2^16 keys (and 2^14 that were never inserted) and 2^21 finds, each a probe of a few
  // slots: a fraction of a millisecond on an H100, most of it the two launches and waits. Honest
  // variants (a compare-and-swap for the tombstone, a modulo per probe) stay within 2 times. Erases
  // that wait for one another (one lock for the table) take some 80,000 handoffs of a microsecond
  // or more, hundreds of times as long; a probe that does not stop at an empty slot never ends
  // here.
  const std::uint64_t seed = course::test::seed();
  const std::size_t n = (std::size_t{1} << 20) - course::test::drawn(seed, 4030) % 4096;
  const auto base = static_cast<std::uint32_t>(course::test::drawn(seed, 4031));
  std::vector<std::uint32_t> keys(n);  // distinct: mix32 is a bijection
  std::vector<std::uint32_t> queries(2 * n);
  std::vector<std::uint32_t> to_erase;
  std::vector<std::uint32_t> expected(2 * n, lesson04::kNotFound);
  for (std::size_t i = 0; i < n; ++i) {
    keys[i] = lesson04::mix32(base + static_cast<std::uint32_t>(i));
    queries[2 * i] = keys[i];
    queries[2 * i + 1] = lesson04::mix32(base + static_cast<std::uint32_t>(n + i));  // absent
    if (i % 16 == 1) {
      to_erase.push_back(keys[i]);
    } else {
      expected[2 * i] = static_cast<std::uint32_t>(i);
    }
    if (i % 64 == 3) to_erase.push_back(queries[2 * i + 1]);  // an erase of an absent key
  }
  const course::DeviceBuffer<std::uint32_t> d_keys(keys);
  const course::DeviceBuffer<std::uint32_t> d_queries(queries);
  const course::DeviceBuffer<std::uint32_t> d_erase(to_erase);
  course::DeviceBuffer<std::uint32_t> d_out(queries.size());
  lesson04::OpenTable table(lesson04::capacity_for(n, 0.5));
  course::test::report_time(
      [&] {
        grading04::erase_keys(view_of(table), d_erase.data(), to_erase.size());
        grading04::find_keys(view_of(table), d_queries.data(), queries.size(), d_out.data());
      },
      9,
      [&] {  // off the clock: the table built again, as the erases left it changed
        table.clear();
        lesson04::insert_open(d_keys.data(), n, table, {});
        CUDA_CHECK(cudaDeviceSynchronize());
      });
  CHECK(course::test::mismatch(d_out.download(), expected) == "");
}
