// A wrong answer to exercise 3 (lesson 01) that the tests may not see: no votes, no rounds. Each
// lane reads every calling lane's bin with 32 broadcasts and builds its group's mask by comparing;
// the lowest lane of the group adds. One add per distinct bin, with its count, by a lane that holds
// it, and the compiled code has a vote (__activemask's ballot and the one that checks the mask) and
// broadcasts like the model answer's. Its 32 broadcasts a call, against the model answer's one or
// two rounds of a broadcast and a vote, should make it slower, but by an estimate of three to five
// times the model answer's time on the timed rounds, too close to the bound of 3 to be sure of.
// Kept here, outside the wrong answers that must score zero, until a GPU run shows which side of
// the bound it falls.
#pragma once

namespace exercise01 {

template <typename Add>
__device__ void warp_aggregated_increment(unsigned int bin, Add add) {
  const unsigned int lane = threadIdx.x % 32;
  const unsigned int active = __ballot_sync(__activemask(), 1);
  unsigned int group = 0;
  for (unsigned int j = 0; j < 32; ++j) {
    const unsigned int js_bin = __shfl_sync(active, bin, j);
    if (((active >> j) & 1u) && js_bin == bin) group |= 1u << j;
  }
  if (static_cast<unsigned int>(__ffs(group) - 1) == lane) add(bin, __popc(group));
}

}  // namespace exercise01
