// What the exercises of lesson 07 give the student's file: the ranks (a GPU and a stream each),
// and exercise 2's one way to move data between ranks, ring_copy, which the grader records.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace exercise07 {

// The ranks of a run: rank r works on GPU devices[r], on stream streams[r] (non-blocking: it waits
// for nothing it is not told to). Two ranks may share a GPU.
struct Ranks {
  std::vector<int> devices;
  std::vector<cudaStream_t> streams;
  int count() const { return static_cast<int>(devices.size()); }
};

// Exercise 2's only copy: enqueues on `stream` a copy of `count` floats from `src`, in rank
// `from`'s memory, to `dst`, in rank `to`'s. The grader records every call (who sent how much to
// whom), and may make the stream wait a while before the copy starts, as a busy GPU would.
void ring_copy(const Ranks& ranks, float* dst, int to, const float* src, int from,
               std::size_t count, cudaStream_t stream);

}  // namespace exercise07
