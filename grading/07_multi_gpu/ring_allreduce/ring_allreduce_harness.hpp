// What the tests of exercise 2 (lesson 07) call: the student's ring_allreduce, run by its harness
// (ring_allreduce_harness.cu), and the record of its copies.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace grading07 {

// One ring_copy the student's code made.
struct Copy {
  int from;
  int to;
  std::size_t count;
};

// The student's ring_allreduce on these ranks, watched; returns the copies it made, in order.
// `hold` (the tests): ring_copy holds up half the ranks' streams before their copies; the timing
// runs without.
std::vector<Copy> ring_allreduce(const std::vector<int>& devices,
                                 const std::vector<cudaStream_t>& streams,
                                 const std::vector<float*>& data,
                                 const std::vector<float*>& scratch, std::size_t n,
                                 bool hold = true);

}  // namespace grading07
