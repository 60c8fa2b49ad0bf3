// An adversarial answer to exercise 3 (lesson 01), written against the grader of 9b2b1d8: the
// lesson's v5, a match instruction, not groups built from votes one round at a time. The groups
// come from cooperative groups' labeled_partition (which calls __match_any_sync: the known wrong
// answer labeled_partition.cuh), placed in a __noinline__ helper in the global namespace. The
// answer check refuses only the names __match_any_sync and __match_all_sync. The compiled-code
// check reads only the functions whose demangled name matches its kernel line,
// `grading01::|exercise01::`; the helper is `lanes_sharing_my_bin_if_i_lead(unsigned int)`, a
// function of its own in the PTX (.func), so its match.any.sync.b32 is never read. (Exercises 1
// and 2 added a `kernel .` group for helpers after block_histogram_counted_down_in_an_unread_
// helper; exercise 3's spec did not.) What the checked functions hold is a first vote that is a
// fast path: the first lane's bin broadcast (shfl.sync.idx) and a ballot (vote.sync.ballot) of the
// lanes that hold it; when that is every calling lane the first lane adds them all, and otherwise
// the helper's match makes every group at once.
// Why each test passes:
// - "one add per distinct bin": all lanes the same bin, one lane active, 0xFFFFFFFF everywhere,
//   only the first lanes active (one bin): the fast path, one add of the calling lanes' number by
//   the lowest calling lane, which holds the bin. Every other pattern: the helper's match groups
//   the calling lanes by bin (any 32-bit value, 0 and 0xFFFFFFFF included), and the group's rank-0
//   lane (its lowest lane, a calling lane that holds the bin) adds the group's size: one add per
//   distinct bin with its count. Cut-short warps and drawn masks: __activemask() names exactly the
//   calling lanes, in the fast path and in the helper (the calling lanes reach it together).
// - the histogram: one add per distinct byte of each warp's 32, its count: exact.
// - the compiled code of grading01:: and exercise01:: functions: vote.sync.ballot.b32 and
//   shfl.sync.idx.b32 (the fast path), no match, no butterfly or shifted shuffle.
// - time: half the timed rounds have one bin (the fast path: one broadcast and one vote, as the
//   model answer's one round), the other half two (one broadcast, one vote, a call and one match,
//   against the model answer's two rounds): about the model answer's time, inside the factor 3.
// A correct grader should apply the forbid rules to every function of the answer (`kernel .`, as
// exercises 1 and 2 do), and refuse labeled_partition and match_any by name.
// Caught: 01.3's forbid rules now read every function of the compiled code.
// expect: compiled: a match instruction
#pragma once

#include <cooperative_groups.h>

// The calling lanes that hold this lane's bin, grouped by a match: the group's size in its lowest
// lane, 0 in the others. Not inlined, and in no namespace the compiled-code check names.
__device__ __noinline__ unsigned int lanes_sharing_my_bin_if_i_lead(unsigned int bin) {
  namespace cg = cooperative_groups;
  const cg::coalesced_group same = cg::labeled_partition(cg::coalesced_threads(), bin);
  return same.thread_rank() == 0 ? same.size() : 0u;
}

namespace exercise01 {

// Called by the active lanes of a warp together, each with its own bin. For each distinct bin
// among them, exactly one of the lanes holding it calls add(bin, count), where count is the
// number of active lanes holding it. So the warp makes one add per distinct bin, not one per lane.
template <typename Add>
__device__ void warp_aggregated_increment(unsigned int bin, Add add) {
  const unsigned int lane = threadIdx.x % 32;
  const unsigned int calling = __activemask();
  const int first = __ffs(calling) - 1;
  const unsigned int firsts_bin = __shfl_sync(calling, bin, first);
  if (__ballot_sync(calling, bin == firsts_bin) == calling) {  // the same in every calling lane
    if (lane == static_cast<unsigned int>(first))
      add(bin, static_cast<unsigned int>(__popc(calling)));
    return;
  }
  const unsigned int count = lanes_sharing_my_bin_if_i_lead(bin);
  if (count != 0) add(bin, count);
}

}  // namespace exercise01
