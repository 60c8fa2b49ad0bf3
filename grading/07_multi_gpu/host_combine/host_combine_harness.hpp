// What the tests of exercise 1 (lesson 07) call: the student's host_combine, run by its harness
// (host_combine_harness.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

namespace grading07 {

// One copy the student's code made (cudaMemcpy or cudaMemcpyAsync, whatever its kind), with where
// its ends are: -1 for host memory, else the GPU that holds it.
struct HostCopy {
  const void* src;
  void* dst;
  std::size_t bytes;
  int src_device;
  int dst_device;
};

// The student's host_combine on these ranks, watched (a call that never returns fails the test);
// returns the copies it made, in order.
std::vector<HostCopy> host_combine(const std::vector<int>& devices,
                                   const std::vector<cudaStream_t>& streams,
                                   const std::vector<const unsigned long long*>& partials,
                                   unsigned long long* host, unsigned long long* out);

}  // namespace grading07
