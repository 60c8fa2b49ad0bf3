// What the tests of lesson 04's exercises share (the tests', not the answers': no answer sees it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "reference.hpp"

namespace grading04 {

// n keys of a kind, with the edge keys 0, 2^31 - 1, 2^31 and 2^32 - 1 in the first places.
inline std::vector<std::uint32_t> keys_with_edges(std::size_t n, lesson04::Dist dist,
                                                  std::uint64_t seed) {
  std::vector<std::uint32_t> keys = lesson04::make_keys(n, dist, seed);
  const std::uint32_t edges[] = {0u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu};
  for (std::size_t i = 0; i < keys.size() && i < 4; ++i)
    keys[i] = edges[i];
  return keys;
}

}  // namespace grading04
