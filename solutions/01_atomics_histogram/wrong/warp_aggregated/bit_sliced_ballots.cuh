// An adversarial answer to exercise 3 (lesson 01): no rounds and no per-round leader, the grouping
// the exercise asks for. It emulates __match_any_sync bit by bit: the bits in which any lane's bin
// differs from the first lane's are found with an OR butterfly of xor shuffles (in a full warp) or
// a vote per byte (in a partial one); then one ballot per such bit, and each lane's group is the
// AND of the ballots (or their complements) that agree with its own bits. The lowest lane of each
// group adds, all groups at once. Every add is right (one per distinct bin, its count, by a lane
// that holds it), the compiled code has the ballots, a broadcast
// (__shfl_sync for the first lane's bin) and no match instruction, and on the timed rounds (bins
// below 256, one or two a warp) it takes one ballot for a single bin and a handful for two: about
// the model answer's time.
// A correct grader should forbid the shuffles the technique does not use (the xor butterfly).
// expect: compiled: shfl\.sync\.bfly
#pragma once

namespace exercise01 {

template <typename Add>
__device__ void warp_aggregated_increment(unsigned int bin, Add add) {
  const unsigned mask = __activemask();
  const unsigned lane = threadIdx.x % 32;
  const unsigned first_bin = __shfl_sync(mask, bin, __ffs(mask) - 1);
  unsigned group = mask;
  if (__ballot_sync(mask, bin != first_bin) != 0) {
    // Which bits vary across the calling lanes. A full warp: an OR butterfly of the lanes'
    // differences from the first bin (xor shuffles), the same in every lane. Otherwise: a vote per
    // byte of the lanes' own differences (a bit in which two lanes differ is a bit in which one of
    // them differs from the first bin).
    unsigned all_varying = 0;
    if (mask == 0xFFFFFFFFu) {
      all_varying = bin ^ first_bin;
      for (int offset = 16; offset > 0; offset /= 2)
        all_varying |= __shfl_xor_sync(mask, all_varying, offset);
    } else {
      for (int b = 0; b < 32; b += 8) {
        if (__ballot_sync(mask, (((bin ^ first_bin) >> b) & 0xFFu) != 0) != 0)
          all_varying |= 0xFFu << b;
      }
    }
    while (all_varying != 0) {
      const int b = __ffs(all_varying) - 1;
      all_varying &= all_varying - 1;
      const unsigned bit = (bin >> b) & 1u;
      const unsigned ones = __ballot_sync(mask, bit);
      group &= bit ? ones : ~ones;
    }
  }
  if (lane == static_cast<unsigned>(__ffs(group) - 1))
    add(bin, static_cast<unsigned>(__popc(group)));
}

}  // namespace exercise01
