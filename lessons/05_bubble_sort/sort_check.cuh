// The GPU check that lesson 05's tests and its graded exercises share: run a sort into poisoned
// output with guard zones, and compare with the reference.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "device_memory.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace lesson05::test {

inline std::vector<std::uint32_t> bits_of(const std::vector<float>& values) {
  std::vector<std::uint32_t> bits(values.size());
  std::transform(values.begin(), values.end(), bits.begin(), course::bits_of<float>);
  return bits;
}

// Sorts `in` with sort(d_in, d_out, n) into a poisoned output with guard zones, and returns what
// the check says: "" when the result is `expected` bit for bit (zeros_equal: -0.0 == +0.0), the
// input is unchanged and nothing was written outside the output.
template <typename Sort>
std::string sorted_by(Sort&& sort, const std::vector<float>& in, const std::vector<float>& expected,
                      bool zeros_equal = false) {
  const course::DeviceBuffer<float> d_in(in);
  course::test::GuardedBuffer<float> out(in.size());
  out.poison(0xFF);
  sort(d_in.data(), out.data(), in.size());
  const std::vector<float> got = out.download();
  if (!out.guards_intact()) return "wrote outside the output";
  if (bits_of(in) != bits_of(d_in.download())) return "changed its input";
  return sort_mismatch(got.data(), expected, zeros_equal);
}

}  // namespace lesson05::test
