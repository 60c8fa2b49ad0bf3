// The harness of exercise 2 (lesson 02): a kernel in which every thread calls the student's
// block_all_sum twice and writes what it got.
#include "../../grading/harness.hpp"

#include <block_all_sum.cuh>  // the student's file

#include "../../../common/launch.hpp"
#include "block_all_sum_harness.hpp"

namespace grading02 {
namespace {

template <typename T>
__global__ void all_sums_kernel(const T* values, T* first, T* second) {
  const std::size_t i = course::first_index();
  const T v = values[i];
  first[i] = exercise02::block_all_sum(v);
  second[i] = exercise02::block_all_sum(v + v);
}

template <typename T>
void run(const T* d_values, int blocks, int threads, T* d_first, T* d_second) {
  grading::watched([&] { all_sums_kernel<<<blocks, threads>>>(d_values, d_first, d_second); });
}

}  // namespace

void all_sums(const int* d_values, int blocks, int threads, int* d_first, int* d_second) {
  run(d_values, blocks, threads, d_first, d_second);
}
void all_sums(const float* d_values, int blocks, int threads, float* d_first, float* d_second) {
  run(d_values, blocks, threads, d_first, d_second);
}

}  // namespace grading02
