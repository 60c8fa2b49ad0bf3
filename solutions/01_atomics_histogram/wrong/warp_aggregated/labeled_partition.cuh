// A wrong answer to exercise 3 (lesson 01): a forbidden call spelt otherwise. Cooperative groups'
// labeled_partition splits the active lanes by bin, which is what __match_any_sync does, and
// compiles to it; the answer check, looking for __match_any_sync and __match_all_sync, does not
// know the name. The compiled code shows the match instruction.
// expect: compiled: a match instruction
#pragma once

#include <cooperative_groups.h>

namespace exercise01 {

template <typename Add>
__device__ void warp_aggregated_increment(unsigned int bin, Add add) {
  namespace cg = cooperative_groups;
  const cg::coalesced_group same = cg::labeled_partition(cg::coalesced_threads(), bin);
  if (same.thread_rank() == 0) add(bin, same.size());
}

}  // namespace exercise01
