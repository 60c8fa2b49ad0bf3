// What the tests of exercise 3 (lesson 02) call: the student's block_reduce, run by its harness
// (any_operator_harness.cu).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace grading02 {

// The largest and the smallest of the n >= 1 values at d_in (device memory), by a grid-stride
// kernel of `threads` threads per block (1 to 1024) that reduces each block with the student's
// block_reduce, then one block of `threads` over the blocks' results. For every type the
// exercise names: int, float and unsigned long long.
int reduce_max(const int* d_in, std::size_t n, int threads);
int reduce_min(const int* d_in, std::size_t n, int threads);
float reduce_max(const float* d_in, std::size_t n, int threads);
float reduce_min(const float* d_in, std::size_t n, int threads);
unsigned long long reduce_max(const unsigned long long* d_in, std::size_t n, int threads);
unsigned long long reduce_min(const unsigned long long* d_in, std::size_t n, int threads);

// One block of `threads` threads (as the reduction's second pass), then trace_blocks() blocks (as
// its first pass), call block_reduce with an operator that counts, on a value of type `traced`
// (each type the exercise names holds the count in its bits): each thread's value is one value and
// no step; op(a, b) holds a's values and b's, and one step more than the longer of a's and b's (the
// identity, which holds no value, changes nothing). What every thread got back, the static shared
// memory of the kernel, and the shuffles each thread made; thread t of block b of the two launches,
// one after the other, at b * threads + t.
enum class Traced { int32, float32, uint64 };
struct ReduceTrace {
  int blocks = 0;                // of both launches
  std::vector<unsigned> values;  // per thread: how many threads' values its result holds
  std::vector<unsigned> steps;   // per thread: the combining steps on the longest path
  std::size_t shared_bytes = 0;
  std::vector<unsigned> shuffles;     // per thread: the shuffles it made
  std::vector<unsigned> stray_masks;  // per thread: those whose mask named a lane past the block's
                                      // end, or left out the thread's own lane
};
int trace_blocks();
ReduceTrace trace_block_reduce(Traced traced, int threads);
const char* traced_name(Traced traced);

// Every kernel of the harness that calls block_reduce, each instance of its types and operators,
// with its static shared memory and the size of the type it reduces.
struct KernelShared {
  std::string kernel;
  std::size_t shared_bytes;
  std::size_t value_bytes;
};
std::vector<KernelShared> shared_memory_of_every_kernel();

// The timed kernel: repeated_blocks() blocks of kRepeatThreads threads (not a whole number of
// warps); thread i (of the grid) calls block_reduce kRepeatRounds times in a row, for the largest
// int, in round r with d_values[i] + (r & 7), and writes acc = acc * 31 + (unsigned) result over
// the rounds to d_out[i].
constexpr int kRepeatThreads = 1000;
constexpr int kRepeatRounds = 8192;
int repeated_blocks();
void repeated_max(const int* d_values, unsigned* d_out);

}  // namespace grading02
