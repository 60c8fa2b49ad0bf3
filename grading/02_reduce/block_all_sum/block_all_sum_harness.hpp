// What the tests of exercise 2 (lesson 02) call: the student's block_all_sum, run by its harness
// (block_all_sum_harness.cu).
#pragma once

#include <vector>

#include "../../probes/tamper.hpp"

namespace grading02 {

// blocks x threads threads: thread t of block b calls the student's block_all_sum twice, with
// v = d_values[b * threads + t] and then with 2 v, and writes what each call returned to
// d_first[b * threads + t] and d_second[b * threads + t] (device memory). For every type the
// exercise's shuffles take: ints, 64-bit ints, floats and doubles. Every shuffle is counted:
// returns how many each thread of the grid made in its two calls. On ints, with `tamper`, each
// shuffle delivers something else than it should (grading/tamper.hpp).
std::vector<unsigned> all_sums(const int* d_values, int blocks, int threads, int* d_first,
                               int* d_second, grading::Tamper tamper = grading::Tamper::none);
std::vector<unsigned> all_sums(const long long* d_values, int blocks, int threads,
                               long long* d_first, long long* d_second);
std::vector<unsigned> all_sums(const float* d_values, int blocks, int threads, float* d_first,
                               float* d_second);
std::vector<unsigned> all_sums(const double* d_values, int blocks, int threads, double* d_first,
                               double* d_second);

// The timed kernel: repeated_sums_blocks() blocks of kRepeatThreads threads; thread i (of the
// grid) calls block_all_sum kRepeatRounds times in a row, in round r with d_values[i] + (r & 7),
// and writes the sum of what the calls returned to d_out[i].
constexpr int kRepeatThreads = 1024;
constexpr int kRepeatRounds = 8192;
int repeated_sums_blocks();
void repeated_sums(const int* d_values, int* d_out);

}  // namespace grading02
