// Grades exercise 3 of lesson 04: exercise04::find in find.cuh. The table is built by the lesson's
// v4 insert; find must return each present key's value (its last index), kNotFound for absent
// keys, handle the sentinel key kEmptyKey, and stop on a table with no empty slot. Fresh random
// keys each run (the seed is printed; COURSE_TEST_SEED repeats it); answers go to a poisoned
// buffer with guard zones.
#include <find.cuh>  // <>: the starter or the solution, whichever the build chose

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "reference.hpp"
#include "testing.hpp"

namespace {

std::vector<std::uint32_t> run_find(lesson04::OpenTable& table,
                                    const std::vector<std::uint32_t>& queries) {
  const course::DeviceBuffer<std::uint32_t> d_queries(queries);
  course::test::GuardedBuffer<std::uint32_t> out(queries.size());
  out.poison(0xA5);
  exercise04::find_keys(d_queries.data(), queries.size(), table, out.data());
  // A find that never stops would hang the test: give it 20 seconds, then say why and stop.
  const auto start = std::chrono::steady_clock::now();
  while (cudaStreamQuery(nullptr) == cudaErrorNotReady) {
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(20)) {
      std::fprintf(stderr,
                   "find has not returned after 20 s: on a table with no empty slot it must stop "
                   "after table.capacity probes\n");
      std::_Exit(1);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  REQUIRE(out.guards_intact());
  return out.download();
}

// Builds a table of `keys` with `slots` slots and checks find on them and on absent keys.
void check_find(const std::vector<std::uint32_t>& keys, std::size_t slots,
                lesson04::Hash hash = lesson04::Hash::mixed) {
  const lesson04::Map map = lesson04::reference_map(keys);
  const course::DeviceBuffer<std::uint32_t> d_keys(keys);
  lesson04::OpenTable table(slots, hash);
  lesson04::insert_open(d_keys.data(), keys.size(), table, {});
  table.throw_if_full();
  REQUIRE(course::test::mismatch(run_find(table, keys), lesson04::reference_find(map, keys)) == "");
  const std::vector<std::uint32_t> absent =
      lesson04::make_absent_keys(keys.size(), keys, course::test::seed());
  REQUIRE(course::test::mismatch(run_find(table, absent),
                                 std::vector<std::uint32_t>(absent.size(), lesson04::kNotFound)) ==
          "");
}

}  // namespace

TEST_CASE("find answers for random and repeated keys, present and absent", "[gpu]") {
  for (std::size_t n : {1, 2, 33, 257, 4097, 1000003}) {
    for (lesson04::Dist dist : {lesson04::Dist::random, lesson04::Dist::dups}) {
      CAPTURE(n, static_cast<int>(dist));
      check_find(lesson04::make_keys(n, dist, course::test::seed()),
                 lesson04::capacity_for(n, 0.5));
    }
  }
}

TEST_CASE("find handles the sentinel key, kept beside the slots", "[gpu]") {
  std::vector<std::uint32_t> keys =
      lesson04::make_keys(10007, lesson04::Dist::random, course::test::seed());
  keys[17] = lesson04::kEmptyKey;
  keys[9000] = lesson04::kEmptyKey;
  check_find(keys, lesson04::capacity_for(keys.size(), 0.5));
  keys[9000] = 12345;  // and a table without it must say it is absent
  keys[17] = 12345;
  const lesson04::Map map = lesson04::reference_map(keys);
  const course::DeviceBuffer<std::uint32_t> d_keys(keys);
  lesson04::OpenTable table(lesson04::capacity_for(keys.size(), 0.5));
  lesson04::insert_open(d_keys.data(), keys.size(), table, {});
  REQUIRE(run_find(table, {lesson04::kEmptyKey})[0] == lesson04::kNotFound);
}

TEST_CASE("find follows long probe runs and stops on a full table", "[gpu]") {
  const std::size_t slots = 4096;  // a multiple of kMaxWindow: the capacity is exactly this
  std::vector<std::uint32_t> colliding(3000);
  for (std::size_t i = 0; i < colliding.size(); ++i)
    colliding[i] = static_cast<std::uint32_t>((i + 1) * slots);  // with key % slots, all at 0
  check_find(colliding, slots, lesson04::Hash::book);
  std::vector<std::uint32_t> all(slots);
  for (std::size_t i = 0; i < slots; ++i)
    all[i] = static_cast<std::uint32_t>(i * 2654435761u);  // distinct: every slot used
  check_find(all, slots);
}
