// What the tests of exercise 1 (lesson 07) call: the student's host_combine, run by its harness
// (host_combine_harness.cu).
#pragma once

#include <cuda_runtime.h>

#include <vector>

namespace grading07 {

// The student's host_combine on these ranks, watched (a call that never returns fails the test).
void host_combine(const std::vector<int>& devices, const std::vector<cudaStream_t>& streams,
                  const std::vector<const unsigned long long*>& partials, unsigned long long* host,
                  unsigned long long* out);

}  // namespace grading07
