// What the tests of exercise 1 (lesson 02) call: the student's first_add_kernel, run by its harness
// (first_add_four_harness.cu).
#pragma once

#include <cstddef>
#include <vector>

namespace grading02 {

constexpr std::size_t kPerBlock = 4 * 256;  // elements a block adds up

// Sums the n >= 1 elements at d_in into *d_result (device memory): the student's kernel on the
// input, then on its own block sums, until one value is left.
void first_add_sum(const int* d_in, std::size_t n, int* d_result);
void first_add_sum(const float* d_in, std::size_t n, float* d_result);

// One pass of the student's kernel over n elements of a type that counts: each element is one
// element and no addition; a + b holds a's elements and b's, and one addition more than the longer
// of a's and b's paths. Per block: how many elements its sum holds, and how many additions lie on
// the longest path from an element to it. With `thread_additions`, also how many additions each
// thread of the launch made (kPerBlock / 4 threads a block).
struct SumTrace {
  unsigned long long elements;
  unsigned additions;
};
std::vector<SumTrace> first_add_trace(std::size_t n,
                                      std::vector<unsigned>* thread_additions = nullptr);

}  // namespace grading02
