// Exercise 1 (lesson 07): the host-staged combine, the lesson's v1, written yourself. Each rank's
// GPU has computed a partial histogram of its share of the bytes; the answer is their sum, on rank
// 0's GPU. Bring the partials to the host, add them there, and send the sum to rank 0's GPU. The
// partials may still be being written when you are called: their work is enqueued on each rank's
// stream, and the host must wait for it, rank by rank, before it reads them.
#pragma once

#include <cstddef>

#include "ranks_support.cuh"  // exercise07::Ranks (grading/)

namespace exercise07 {

constexpr int kBins = 256;

// partials[r]: rank r's 256 counts, on GPU ranks.devices[r], written by work already enqueued on
// ranks.streams[r]. host: ranks.count() * 256 counts of pinned host memory, yours to use. Write
// the sum, bin by bin, of every rank's counts to out: 256 counts on GPU ranks.devices[0]. When you
// return, the sum must be in out, or on its way there on ranks.streams[0]. Counts pass 2^32.
inline void host_combine(const Ranks& ranks, const unsigned long long* const* partials,
                         unsigned long long* host, unsigned long long* out) {
  // TODO: for each rank, make its GPU current (cudaSetDevice) and copy its partial into its row of
  //   `host` with cudaMemcpyAsync on its stream (after the work that writes it); wait for every
  //   rank's stream (cudaStreamSynchronize); add the rows in 64 bits; copy the sum to out.
  (void)ranks;
  (void)partials;
  (void)host;
  (void)out;
}

}  // namespace exercise07
