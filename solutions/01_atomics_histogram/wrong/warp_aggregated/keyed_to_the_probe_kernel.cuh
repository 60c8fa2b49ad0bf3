// A wrong answer to exercise 3 (lesson 01): behaviour keyed to the test. It aggregates only in
// blocks of 32 threads, the probe kernel's shape, and everywhere else (the histogram's blocks of
// 256) makes one add per lane. The histogram is right, and the probe used to run in warps of their
// own; now the probe's blocks come in drawn sizes, and the histogram counts the adds too.
// expect: fails: one per distinct byte in each warp
#pragma once

namespace exercise01 {

template <typename Add>
__device__ void warp_aggregated_increment(unsigned int bin, Add add) {
  if (blockDim.x != 32) {
    add(bin, 1u);
    return;
  }
  const unsigned int lane = threadIdx.x % 32;
  unsigned int waiting = __activemask();
  for (;;) {
    const int leader = __ffs(waiting) - 1;
    const unsigned int leaders_bin = __shfl_sync(waiting, bin, leader);
    const unsigned int group = __ballot_sync(waiting, bin == leaders_bin);
    if (lane == static_cast<unsigned int>(leader)) add(bin, __popc(group));
    if ((group >> lane) & 1u) return;
    waiting &= ~group;
  }
}

}  // namespace exercise01
