// A wrong answer to exercise 3 (lesson 01): the technique skipped where only the clock shows it.
// It takes one round for each of the 32 lanes, in order, whatever the bins: in round j, lane j (if
// it calls, and if no lower lane held its bin) leads the lanes that hold its bin. Every add is
// right, made once per distinct bin by a lane that holds it; but a warp whose lanes hold one bin
// takes 32 rounds where the model answer takes one: several times its time.
// expect: slow
#pragma once

namespace exercise01 {

template <typename Add>
__device__ void warp_aggregated_increment(unsigned int bin, Add add) {
  const unsigned int lane = threadIdx.x % 32;
  const unsigned int active = __activemask();
  for (unsigned int j = 0; j < 32; ++j) {
    if (((active >> j) & 1u) == 0) continue;  // the same in every calling lane
    const unsigned int js_bin = __shfl_sync(active, bin, j);
    const unsigned int group = __ballot_sync(active, bin == js_bin);
    if (lane == j && static_cast<unsigned int>(__ffs(group) - 1) == j) add(bin, __popc(group));
  }
}

}  // namespace exercise01
