// A wrong answer to exercise 3 (lesson 01): a bug the old inputs never reached. A lane whose bin
// has been added marks itself done by setting its bin to 0xFFFFFFFF, a bin no histogram of bytes
// uses, and every active lane votes in every round. A lane that really holds 0xFFFFFFFF looks done
// from the start, and its bin is never added. The probe's bins used to be below 256; now they
// come from the whole 32-bit range, 0xFFFFFFFF among them.
// expect: fails: is held by [0-9]+ active lanes
#pragma once

namespace exercise01 {

template <typename Add>
__device__ void warp_aggregated_increment(unsigned int bin, Add add) {
  constexpr unsigned int kDone = 0xFFFFFFFFu;
  const unsigned int lane = threadIdx.x % 32;
  const unsigned int active = __activemask();
  unsigned int mine = bin;
  for (;;) {
    const unsigned int pending = __ballot_sync(active, mine != kDone);
    if (pending == 0) return;
    const int leader = __ffs(pending) - 1;
    const unsigned int leaders_bin = __shfl_sync(active, mine, leader);
    const unsigned int group = __ballot_sync(active, mine == leaders_bin);
    if (lane == static_cast<unsigned int>(leader)) add(leaders_bin, __popc(group));
    if (mine == leaders_bin) mine = kDone;
  }
}

}  // namespace exercise01
