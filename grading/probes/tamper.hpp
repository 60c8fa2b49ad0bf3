// How a tampering shuffle probe (shuffle_probe.cuh) changes what a shuffle delivers; in a header
// of its own so that the tests, which never include the probe, can name the modes.
#pragma once

namespace grading {

enum class Tamper {
  none,
  plus_one,    // 1 more than the value
  swap_pairs,  // the value that lane ^ 1 got (where that lane is in the mask)
};

}  // namespace grading
