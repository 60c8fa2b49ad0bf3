// A wrong answer to exercise 2 (lesson 07): NCCL's all-reduce, where the exercise is to write the
// ring; the answer check refuses the header.
// expect: rejected: includes <nccl.h>
#pragma once

#include <cstddef>

#include <nccl.h>

#include "ranks_support.cuh"

namespace exercise07 {

inline void ring_allreduce(const Ranks& ranks, float* const* data, float* const* scratch,
                           std::size_t n) {
  (void)scratch;
  ncclComm_t comms[8];
  ncclCommInitAll(comms, ranks.count(), ranks.devices.data());
  ncclGroupStart();
  for (int r = 0; r < ranks.count(); ++r)
    ncclAllReduce(data[r], data[r], n, ncclFloat32, ncclSum, comms[r], ranks.streams[r]);
  ncclGroupEnd();
}

}  // namespace exercise07
