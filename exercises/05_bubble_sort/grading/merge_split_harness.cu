// The harness of exercise 2 (lesson 05): odd-even transposition on runs of kRun floats, with the
// student's merge_split_kernel as the compare-and-swap; the comparisons counted when the tests ask.
#include "../../grading/harness.hpp"

#include <merge_split.cuh>  // the student's file

#include "merge_split_harness.hpp"

#include <algorithm>
#include <vector>

static_assert(exercise05::kRun == grading05::kRun && exercise05::kMergeThreads == 256,
              "the exercise's constants are part of its statement: keep them");

namespace grading05 {
namespace {

unsigned long long rounds(float* d_data, std::size_t n) {
  const std::size_t runs = (n + kRun - 1) / kRun;
  unsigned long long merges = 0;
  grading::watched(
      [&] {
        for (std::size_t round = 0; round < runs; ++round) {
          const std::size_t start = round % 2;  // the first run of this round's pairs
          const std::size_t pairs = (runs - start) / 2;
          if (pairs == 0) continue;
          exercise05::
              merge_split_kernel<<<static_cast<unsigned>(pairs), exercise05::kMergeThreads>>>(
                  d_data, n, start * kRun);
          CUDA_CHECK(cudaGetLastError());
          merges += pairs;
        }
      },
      runs);
  return merges;
}

}  // namespace

void merge_rounds(float* d_data, std::size_t n) {
  rounds(d_data, n);
}

MergeCount merge_rounds_probed(float* d_data, std::size_t n) {
  course::DeviceBuffer<unsigned long long> counts(1 + exercise05::kMergeThreads);
  counts.fill_bytes(0);
  unsigned long long* counter = counts.data();
  unsigned long long* per_thread = counts.data() + 1;
  CUDA_CHECK(cudaMemcpyToSymbol(grading::g_comparisons, &counter, sizeof counter));
  CUDA_CHECK(cudaMemcpyToSymbol(grading::g_thread_comparisons, &per_thread, sizeof per_thread));
  MergeCount count;
  count.merges = rounds(d_data, n);
  counter = nullptr;
  per_thread = nullptr;
  CUDA_CHECK(cudaMemcpyToSymbol(grading::g_comparisons, &counter, sizeof counter));
  CUDA_CHECK(cudaMemcpyToSymbol(grading::g_thread_comparisons, &per_thread, sizeof per_thread));
  const std::vector<unsigned long long> got = counts.download();
  count.comparisons = got[0];
  count.busiest_thread = *std::max_element(got.begin() + 1, got.end());
  return count;
}

void merge_rounds_reversed(float* d_data, std::size_t n) {
  struct Reversed {  // the order is the course's again however the rounds end
    explicit Reversed(bool on) { set(on); }
    ~Reversed() { set(false); }
    static void set(bool on) {
      CUDA_CHECK(cudaMemcpyToSymbol(grading::g_reversed, &on, sizeof on));
    }
  } reversed(true);
  rounds(d_data, n);
}

RunComparisons merge_once_probed(float* d_data, std::size_t n, std::size_t first_run) {
  course::DeviceBuffer<unsigned long long> counts(2);
  counts.fill_bytes(0);
  unsigned long long* comparisons = counts.data();
  unsigned long long* same_run = counts.data() + 1;
  CUDA_CHECK(cudaMemcpyToSymbol(grading::g_comparisons, &comparisons, sizeof comparisons));
  CUDA_CHECK(cudaMemcpyToSymbol(grading::g_same_run, &same_run, sizeof same_run));
  const std::size_t pairs = ((n + kRun - 1) / kRun - first_run) / 2;
  grading::watched([&] {
    exercise05::merge_split_kernel<<<static_cast<unsigned>(pairs), exercise05::kMergeThreads>>>(
        d_data, n, first_run * kRun);
  });
  comparisons = nullptr;
  same_run = nullptr;
  CUDA_CHECK(cudaMemcpyToSymbol(grading::g_comparisons, &comparisons, sizeof comparisons));
  CUDA_CHECK(cudaMemcpyToSymbol(grading::g_same_run, &same_run, sizeof same_run));
  const std::vector<unsigned long long> got = counts.download();
  return {got[0], got[1]};
}

}  // namespace grading05
