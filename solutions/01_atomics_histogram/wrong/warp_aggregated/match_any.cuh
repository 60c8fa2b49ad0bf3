// A wrong answer to exercise 3 (lesson 01): the lesson's own v5, with __match_any_sync, which this
// exercise asks you to build from votes. The answer check refuses it.
// expect: rejected: uses __match_any_sync
#pragma once

namespace exercise01 {

template <typename Add>
__device__ void warp_aggregated_increment(unsigned int bin, Add add) {
  const unsigned int peers = __match_any_sync(__activemask(), bin);
  if (static_cast<int>(threadIdx.x % 32) == __ffs(peers) - 1) add(bin, __popc(peers));
}

}  // namespace exercise01
