// Exercise 3 (lesson 01): warp-aggregated increments, built from warp votes. v5 finds the lanes
// that hold the same bin with __match_any_sync, one instruction; here you build the same grouping
// from __ballot_sync and __shfl_sync, as code for GPUs older than Volta had to (the answer check
// refuses __match_any_sync and __match_all_sync in this exercise). Write
// warp_aggregated_increment; the tests call it from a probe kernel and from v2's histogram.
#pragma once

namespace exercise01 {

// Called by the active lanes of a warp together, each with its own bin. For each distinct bin
// among them, exactly one of the lanes holding it calls add(bin, count), where count is the
// number of active lanes holding it. So the warp makes one add per distinct bin, not one per lane.
template <typename Add>
__device__ void warp_aggregated_increment(unsigned int bin, Add add) {
  // TODO: group the active lanes by bin, one group per round:
  //   1. the lanes still waiting: at first every lane running this call, __activemask();
  //   2. the lowest waiting lane is the leader (__ffs gives the 1-based position of the lowest set
  //      bit); every waiting lane reads the leader's bin with __shfl_sync(waiting, bin, leader);
  //   3. __ballot_sync(waiting, bin == leader's bin) is the leader's group: the leader calls
  //      add(its bin, the group's size, which __popc counts); the group's lanes are done and leave
  //      the loop, and the others go round again without them.
  //   Every lane of the mask you give a *_sync call must make that call.
  (void)bin;
  (void)add;
}

}  // namespace exercise01
