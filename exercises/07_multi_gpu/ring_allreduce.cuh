// Exercise 2 (lesson 07): the ring all-reduce, written yourself. Every rank holds n floats; at the
// end every rank must hold the sum of all of them, element by element. Cut the vector into G
// chunks (G = ranks.count()). In G - 1 steps of reduce-scatter, rank r receives one chunk from its
// left neighbour, rank (r - 1) mod G, and adds it into its own; then rank r holds the full sum of
// chunk (r + 1) mod G. In G - 1 steps of all-gather, each rank passes on the finished chunk it
// has last received, and the receiver keeps it. Data moves only with ring_copy, only from a rank
// to its right neighbour, at most a chunk (ceil(n / G) floats) at a time. Order the steps with
// events, never the host: a rank may start a step once both neighbours have finished the one
// before (the left one has written what it reads; the right one has read what it will overwrite).
#pragma once

#include <cstddef>

#include "ranks_support.cuh"  // exercise07::Ranks and ring_copy (grading/)

namespace exercise07 {

// data[r]: rank r's n floats, on GPU ranks.devices[r]. scratch[r]: ceil(n / G) floats on the same
// GPU, yours to use. Enqueue everything on the ranks' streams (ranks.streams[r] for rank r); the
// grader waits for all of them. G is at most 8.
inline void ring_allreduce(const Ranks& ranks, float* const* data, float* const* scratch,
                           std::size_t n) {
  // TODO: an events array of [2 * (8 - 1)][8]; for each step s and each rank r (its GPU current):
  //   create done[s][r]; wait for done[s - 1] of both neighbours; find the chunk this step
  //   receives; ring_copy it from the left neighbour (into scratch[r], then a kernel of yours adds
  //   it into data[r], for reduce-scatter; straight into data[r], for all-gather); record
  //   done[s][r] on the rank's stream. Destroy the events at the end, each with its GPU current.
  (void)ranks;
  (void)data;
  (void)scratch;
  (void)n;
}

}  // namespace exercise07
