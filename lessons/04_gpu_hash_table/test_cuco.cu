// Lesson 04's cuco row: its check and its empty-slot key on the CPU, and cuco::static_map itself on
// the GPU on small inputs: keys present and absent at the contract's small sizes on every input,
// the course's empty-key sentinel as a key, and repeated keys, each answered by an index that
// holds it; the table cleared and built again gives the same answers. Built only when the build
// names cuCollections' headers (-DCOURSE_CUCO_INCLUDE_DIR).
#include <cstdint>
#include <vector>

#include "kernels.cuh"
#include "reference.hpp"
#include "testing.hpp"

namespace {

using lesson04::Dist;
using lesson04::kNotFound;

// What `table` answers for `queries` (host), from a poisoned buffer.
std::vector<std::uint32_t> cuco_answers(const lesson04::CucoTable& table,
                                        const std::vector<std::uint32_t>& queries) {
  const course::DeviceBuffer<std::uint32_t> d_queries(queries);
  course::DeviceBuffer<std::uint32_t> out(queries.size());
  out.fill_bytes(0xA5);
  table.find(d_queries.data(), queries.size(), out.data());
  return out.download();
}

// Builds a cuco table of `keys` at `load_factor` twice (cleared between) and checks it against
// std::unordered_map: the distinct keys held, every present key found at one of its indices,
// every absent key not found.
void check_cuco(const std::vector<std::uint32_t>& keys, double load_factor) {
  const std::size_t n = keys.size();
  const lesson04::Map map = lesson04::reference_map(keys);
  const std::vector<std::uint32_t> absent = lesson04::make_absent_keys(n, keys, 11);
  const std::uint32_t empty = lesson04::free_key(map, absent);
  lesson04::CucoTable table(lesson04::capacity_for(n, load_factor), empty);
  REQUIRE(table.capacity() >= lesson04::capacity_for(n, load_factor));
  const course::DeviceBuffer<std::uint32_t> d_keys(keys);
  for (int build = 0; build < 2; ++build) {
    CAPTURE(build);
    table.clear();
    table.insert(d_keys.data(), n);
    REQUIRE(table.size() == map.size());
    REQUIRE(lesson04::wrong_occurrences(cuco_answers(table, keys),
                                        lesson04::reference_find(map, keys), keys) == "");
    REQUIRE(course::test::mismatch(cuco_answers(table, absent),
                                   std::vector<std::uint32_t>(n, kNotFound)) == "");
  }
}

}  // namespace

TEST_CASE("the cuco row's check takes any index of the key, and nothing else", "[cpu]") {
  const std::vector<std::uint32_t> keys = {7, 7, 3, 9, 3};
  const std::vector<std::uint32_t> expected = {1, 1, 4, 3, 4, kNotFound};  // the map's: the last
  CHECK(lesson04::wrong_occurrences({1, 0, 2, 3, 4, kNotFound}, expected, keys) == "");
  CHECK(lesson04::wrong_occurrences({0, 1, 4, 3, 2, kNotFound}, expected, keys) == "");
  CHECK(lesson04::wrong_occurrences({1, 1, 3, 3, 4, kNotFound}, expected, keys) ==
        "1 of 6 lookups wrong");  // 3's answer is 9's index
  CHECK(lesson04::wrong_occurrences({1, 1, 4, kNotFound, 4, 0}, expected, keys) ==
        "2 of 6 lookups wrong");  // 9 not found, an absent key found
  CHECK(lesson04::wrong_occurrences({5, 1, 4, 3, 4, kNotFound}, expected, keys) ==
        "1 of 6 lookups wrong");  // an index past the keys
}

TEST_CASE("cuco's empty-slot key is no key and no query", "[cpu]") {
  const std::vector<std::uint32_t> keys = {0xFFFFFFFFu, 0xFFFFFFFDu, 5};
  const std::vector<std::uint32_t> absent = {0xFFFFFFFEu, 6};
  CHECK(lesson04::free_key(lesson04::reference_map(keys), absent) == 0xFFFFFFFCu);
  CHECK(lesson04::free_key(lesson04::reference_map({1}), {}) == 0xFFFFFFFFu);
}

TEST_CASE("cuco::static_map finds every key present and none absent, on every input", "[gpu]") {
  for (const Dist dist : {Dist::random, Dist::sequential, Dist::dups, Dist::equal, Dist::collide}) {
    for (const std::size_t n : {1, 2, 31, 32, 33, 255, 256, 257, 4097, 100003}) {
      CAPTURE(lesson04::dists().name(dist), n);
      check_cuco(lesson04::make_keys(n, dist, course::test::seed()), 0.5);
    }
  }
}

TEST_CASE("cuco::static_map keeps the course's empty-key sentinel as a key, at a full load",
          "[gpu]") {
  std::vector<std::uint32_t> keys = lesson04::make_keys(4099, Dist::random, course::test::seed());
  keys[0] = lesson04::kEmptyKey;
  keys[2000] = lesson04::kEmptyKey;
  check_cuco(keys, 1.0);
}

TEST_CASE("cuco::static_map answers a repeated key with one of its indices", "[gpu]") {
  const std::vector<std::uint32_t> keys = {7, 7, 7, 3, 9, 3, 7, 0, 0};
  check_cuco(keys, 0.5);
  const lesson04::Map map = lesson04::reference_map(keys);
  lesson04::CucoTable table(16, lesson04::free_key(map, {}));
  const course::DeviceBuffer<std::uint32_t> d_keys(keys);
  table.insert(d_keys.data(), keys.size());
  const std::vector<std::uint32_t> got = cuco_answers(table, {7, 3, 9, 0, 1});
  CHECK((got[0] == 0 || got[0] == 1 || got[0] == 2 || got[0] == 6));
  CHECK((got[1] == 3 || got[1] == 5));
  CHECK(got[2] == 4);
  CHECK((got[3] == 7 || got[3] == 8));
  CHECK(got[4] == kNotFound);
}
