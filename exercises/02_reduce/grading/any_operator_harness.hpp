// What the tests of exercise 3 (lesson 02) call: the student's block_reduce, run by its harness
// (any_operator_harness.cu).
#pragma once

#include <cstddef>
#include <vector>

namespace grading02 {

// The largest and the smallest of the n >= 1 values at d_in (device memory), by a grid-stride
// kernel of `threads` threads per block (1 to 1024) that reduces each block with the student's
// block_reduce, then one block of `threads` over the blocks' results.
int reduce_max(const int* d_in, std::size_t n, int threads);
int reduce_min(const int* d_in, std::size_t n, int threads);
float reduce_max(const float* d_in, std::size_t n, int threads);
float reduce_min(const float* d_in, std::size_t n, int threads);

// One block of `threads` threads calls block_reduce with an operator that counts: each thread's
// value is one value and no step; op(a, b) holds a's values and b's, and one step more than the
// longer of a's and b's. What every thread got back, and the static shared memory of the kernel.
struct ReduceTrace {
  std::vector<unsigned> values;  // per thread: how many threads' values its result holds
  std::vector<unsigned> steps;   // per thread: the combining steps on the longest path
  std::size_t shared_bytes = 0;
};
ReduceTrace trace_block_reduce(int threads);
constexpr std::size_t kTracedValueBytes = 8;  // the size of the counting type

}  // namespace grading02
