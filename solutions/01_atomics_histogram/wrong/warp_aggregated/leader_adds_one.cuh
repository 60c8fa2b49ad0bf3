// A wrong answer to exercise 3 (lesson 01): the groups are found right, but the leader adds 1, not
// the size of its group.
// expect: fails: CHECK\( total\[held\.first\] == held\.second \)
#pragma once

namespace exercise01 {

template <typename Add>
__device__ void warp_aggregated_increment(unsigned int bin, Add add) {
  const unsigned int lane = threadIdx.x % 32;
  unsigned int waiting = __activemask();
  for (;;) {
    const int leader = __ffs(waiting) - 1;
    const unsigned int leaders_bin = __shfl_sync(waiting, bin, leader);
    const unsigned int group = __ballot_sync(waiting, bin == leaders_bin);
    if (lane == static_cast<unsigned int>(leader)) add(bin, 1u);
    if ((group >> lane) & 1u) return;
    waiting &= ~group;
  }
}

}  // namespace exercise01
