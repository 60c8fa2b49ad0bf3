// A wrong answer to exercise 3 (lesson 01): no aggregation, every lane adds its own 1. The
// histogram is right; the probe sees one add per lane, not one per distinct bin.
// expect: fails: adds made: [0-9]+; distinct bins among the calling lanes
#pragma once

namespace exercise01 {

template <typename Add>
__device__ void warp_aggregated_increment(unsigned int bin, Add add) {
  add(bin, 1u);
}

}  // namespace exercise01
