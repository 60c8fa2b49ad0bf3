// What the tests of the histogram exercises (lesson 01) ask of every probed run, whatever else
// each exercise asks: one shared-memory add per counted value, none of them padding, and global
// adds only to merge (at most one per bin and block).
#pragma once

#include "../../common/testing.hpp"
#include "atomic_counts.hpp"

namespace grading {

// `counted`: the values the run must count (`what` names them in the messages); `bins`: the bins
// each block may merge.
inline void check_shared_adds(const AtomicReport& report, unsigned long long counted,
                              const char* what, unsigned long long bins) {
  INFO("shared-memory atomicAdd calls: " << report.counts.shared_adds << "; " << what << ": "
                                         << counted);
  CHECK(report.counts.shared_adds == counted);
  INFO("shared-memory atomicAdd calls that added 0, or no whole count (padding, not counting): "
       << report.counts.shared_zeros);
  CHECK(report.counts.shared_zeros == 0);
  const unsigned long long merges = static_cast<unsigned long long>(report.blocks) * bins;
  INFO("global atomicAdd calls: " << report.counts.global_adds
                                  << "; at most one per bin and block: " << merges);
  CHECK(report.counts.global_adds <= merges);
}

}  // namespace grading
