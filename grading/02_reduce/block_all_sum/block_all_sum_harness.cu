// The harness of exercise 2 (lesson 02): a kernel in which every thread calls the student's
// block_all_sum twice and writes what it got, its shuffles counted in every run (and tampered with
// when the tests ask), and one, the timed one, in which it calls it many times in a row.
#include "../../probes/harness.hpp"
#include "../../probes/shuffle_probe.cuh"  // before the student's file: its shuffles are counted

#include <block_all_sum.cuh>  // the student's file

#include "../../../common/launch.hpp"
#include "block_all_sum_harness.hpp"

namespace grading02 {

// The kernels, in a namespace with a name, which the compiled-code check's messages show.
namespace kernels {

template <typename T>
__global__ void all_sums_kernel(const T* values, T* first, T* second) {
  const std::size_t i = course::first_index();
  const T v = values[i];
  first[i] = exercise02::block_all_sum(v);
  second[i] = exercise02::block_all_sum(v + v);
}

__global__ void repeated_sums_kernel(const int* values, int rounds, int* out) {
  const std::size_t i = course::first_index();
  const int v = values[i];
  int total = 0;
  for (int r = 0; r < rounds; ++r)
    total += exercise02::block_all_sum(v + (r & 7));
  out[i] = total;
}

}  // namespace kernels

namespace {

template <typename T>
std::vector<unsigned> run(const T* d_values, int blocks, int threads, T* d_first, T* d_second,
                          grading::Tamper tamper) {
  const std::size_t count = static_cast<std::size_t>(blocks) * threads;
  const auto launch = [&] {
    kernels::all_sums_kernel<<<blocks, threads>>>(d_values, d_first, d_second);
  };
  return grading::probe_shuffles(count, launch, tamper).shuffles;
}

}  // namespace

std::vector<unsigned> all_sums(const int* d_values, int blocks, int threads, int* d_first,
                               int* d_second, grading::Tamper tamper) {
  return run(d_values, blocks, threads, d_first, d_second, tamper);
}
std::vector<unsigned> all_sums(const long long* d_values, int blocks, int threads,
                               long long* d_first, long long* d_second) {
  return run(d_values, blocks, threads, d_first, d_second, grading::Tamper::none);
}
std::vector<unsigned> all_sums(const float* d_values, int blocks, int threads, float* d_first,
                               float* d_second) {
  return run(d_values, blocks, threads, d_first, d_second, grading::Tamper::none);
}
std::vector<unsigned> all_sums(const double* d_values, int blocks, int threads, double* d_first,
                               double* d_second) {
  return run(d_values, blocks, threads, d_first, d_second, grading::Tamper::none);
}

int repeated_sums_blocks() {
  return 2 * course::sm_count();
}

void repeated_sums(const int* d_values, int* d_out) {
  grading::watched([&] {
    kernels::repeated_sums_kernel<<<repeated_sums_blocks(), kRepeatThreads>>>(d_values,
                                                                              kRepeatRounds, d_out);
  });
}

}  // namespace grading02
