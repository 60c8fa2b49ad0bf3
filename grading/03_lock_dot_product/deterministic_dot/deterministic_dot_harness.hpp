// What the tests of exercise 2 (lesson 03) call: the student's chunk_dots and add_partials, run by
// their harness (deterministic_dot_harness.cu).
#pragma once

#include <cstddef>

namespace grading03 {

constexpr std::size_t kChunk = 4096;

// The chunks of n elements: ceil(n / kChunk).
inline std::size_t chunks_for(std::size_t n) {
  return (n + kChunk - 1) / kChunk;
}

// The dot product of the n >= 1 elements at d_a and d_b into *d_result, through
// d_partials[0, chunks_for(n)) (all device memory): the student's chunk_dots with `blocks` blocks,
// then add_partials with one.
void chunked_dot(const float* d_a, const float* d_b, std::size_t n, int blocks, float* d_partials,
                 float* d_result);

}  // namespace grading03
