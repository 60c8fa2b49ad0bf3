// Grades exercise 3 of lesson 04: erase and find (erase.cuh). v4's insert builds the table; the
// student's erase removes a random half of its distinct keys; then the student's find must give
// every remaining key its value (its last index), and kNotFound for every erased and every absent
// key. The slots are checked too: each erased key's slot a tombstone, no slot made empty. Long
// probe runs, the sentinel key, and a table with no empty slot at all (a find that never stops is
// stopped by the watchdog). Fresh random keys each run (the seed is printed; COURSE_TEST_SEED
// repeats it).
#include <algorithm>
#include <random>
#include <string>
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

std::size_t count_slots(lesson04::OpenTable& table, lesson04::Slot which) {
  const lesson04::OpenView v = table.view();
  std::vector<lesson04::Slot> slots(v.capacity);
  CUDA_CHECK(cudaMemcpy(slots.data(), v.slots, slots.size() * sizeof(lesson04::Slot),
                        cudaMemcpyDeviceToHost));
  return static_cast<std::size_t>(std::count(slots.begin(), slots.end(), which));
}

// Builds a table of `keys` with `slots` slots, erases a random half of its distinct keys with the
// student's erase, and checks the slots and the student's find.
void check_erase(const std::vector<std::uint32_t>& keys, std::size_t slots, const std::string& what,
                 lesson04::Hash hash = lesson04::Hash::mixed, std::uint64_t shuffle = 0) {
  const course::DeviceBuffer<std::uint32_t> d_keys(keys);
  lesson04::OpenTable table(slots, hash);
  lesson04::insert_open(d_keys.data(), keys.size(), table, {});
  table.throw_if_full();
  lesson04::Map map = lesson04::reference_map(keys);

  std::vector<std::uint32_t> distinct;
  for (const auto& entry : map)
    distinct.push_back(entry.first);
  std::sort(distinct.begin(), distinct.end());
  std::mt19937_64 rng(course::test::seed() + shuffle);
  std::shuffle(distinct.begin(), distinct.end(), rng);
  const std::vector<std::uint32_t> erased(distinct.begin(), distinct.begin() + distinct.size() / 2);
  const std::size_t empty_before = count_slots(table, lesson04::kEmptySlot);
  const course::DeviceBuffer<std::uint32_t> d_erased(erased);
  grading04::erase_keys(view_of(table), d_erased.data(), erased.size());

  INFO(what << ", n = " << keys.size() << ", " << table.capacity() << " slots, " << erased.size()
            << " keys erased");
  std::size_t erased_in_slots = 0;
  for (std::uint32_t key : erased) {
    erased_in_slots += key != lesson04::kEmptyKey;
    map.erase(key);
  }
  const std::size_t empty_after = count_slots(table, lesson04::kEmptySlot);
  INFO("empty slots: " << empty_before << " before the erases, " << empty_after
                       << " after (an erased key's slot must not become empty)");
  CHECK(empty_after == empty_before);
  INFO("tombstones: " << count_slots(table, exercise04::kTombstone) << " for " << erased_in_slots
                      << " erased keys");
  CHECK(count_slots(table, exercise04::kTombstone) == erased_in_slots);
  INFO("find of every key inserted: the erased ones must be absent, the others found");
  CHECK(course::test::mismatch(student_find(table, keys), lesson04::reference_find(map, keys)) ==
        "");
  const std::vector<std::uint32_t> absent =
      lesson04::make_absent_keys(keys.size(), keys, course::test::seed());
  INFO("find of keys never inserted");
  CHECK(course::test::mismatch(student_find(table, absent),
                               std::vector<std::uint32_t>(absent.size(), lesson04::kNotFound)) ==
        "");
}

}  // namespace

TEST_CASE("erased keys are gone, the others found, at every size", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (std::size_t n : {1, 2, 33, 257, 4097, 1000003}) {
    for (lesson04::Dist dist : {lesson04::Dist::random, lesson04::Dist::dups}) {
      check_erase(lesson04::make_keys(n, dist, seed), lesson04::capacity_for(n, 0.5),
                  lesson04::dists().name(dist));
    }
  }
  // A full table's runs are long: an erased slot that turned empty would cut many of them.
  check_erase(lesson04::make_keys(100003, lesson04::Dist::random, seed),
              lesson04::capacity_for(100003, 0.9), "random, load 0.9");
}

TEST_CASE("long probe runs, and the sentinel key kept beside the slots", "[gpu]") {
  const std::size_t slots = 4096;  // a multiple of kMaxWindow: the capacity is exactly this
  std::vector<std::uint32_t> colliding(3000);
  for (std::size_t i = 0; i < colliding.size(); ++i)
    colliding[i] = static_cast<std::uint32_t>((i + 1) * slots);  // with key % slots, all at 0
  check_erase(colliding, slots, "one run of 3000 keys", lesson04::Hash::book);
  std::vector<std::uint32_t> keys =
      lesson04::make_keys(10007, lesson04::Dist::random, course::test::seed());
  keys[17] = lesson04::kEmptyKey;
  keys[9000] = lesson04::kEmptyKey;
  for (std::uint64_t s = 0; s < 4; ++s) {  // a random half: sometimes the sentinel is erased
    check_erase(keys, lesson04::capacity_for(keys.size(), 0.5), "with the sentinel key",
                lesson04::Hash::mixed, s);
  }
}

TEST_CASE("a table with no empty slot: erase, then find stops", "[gpu]") {
  const std::size_t slots = 4096;
  std::vector<std::uint32_t> all(slots);
  for (std::size_t i = 0; i < slots; ++i)
    all[i] = static_cast<std::uint32_t>(i * 2654435761u);  // distinct: every slot used
  check_erase(all, slots, "no empty slot");
}
