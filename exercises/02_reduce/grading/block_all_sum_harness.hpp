// What the tests of exercise 2 (lesson 02) call: the student's block_all_sum, run by its harness
// (block_all_sum_harness.cu).
#pragma once

namespace grading02 {

// blocks x threads threads: thread t of block b calls the student's block_all_sum twice, with
// v = d_values[b * threads + t] and then with 2 v, and writes what each call returned to
// d_first[b * threads + t] and d_second[b * threads + t] (device memory).
void all_sums(const int* d_values, int blocks, int threads, int* d_first, int* d_second);
void all_sums(const float* d_values, int blocks, int threads, float* d_first, float* d_second);

}  // namespace grading02
