// Exercise 3 (lesson 01), solved: the lanes that hold the same bin, found one group per round by a
// broadcast of the leader's bin and a vote.
#pragma once

namespace exercise01 {

// Called by the active lanes of a warp together, each with its own bin. For each distinct bin
// among them, exactly one of the lanes holding it calls add(bin, count), where count is the
// number of active lanes holding it. So the warp makes one add per distinct bin, not one per lane.
template <typename Add>
__device__ void warp_aggregated_increment(unsigned int bin, Add add) {
  const unsigned int lane = threadIdx.x % 32;
  unsigned int waiting = __activemask();  // the lanes whose bin has no add yet
  for (;;) {
    const int leader = __ffs(waiting) - 1;
    const unsigned int leaders_bin = __shfl_sync(waiting, bin, leader);
    const unsigned int group = __ballot_sync(waiting, bin == leaders_bin);
    if (lane == static_cast<unsigned int>(leader)) add(bin, __popc(group));
    if ((group >> lane) & 1u) return;  // my bin is counted
    waiting &= ~group;                 // the same in every lane still here
  }
}

}  // namespace exercise01
