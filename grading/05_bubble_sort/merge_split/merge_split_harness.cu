// The harness of exercise 2 (lesson 05): odd-even transposition on runs of kRun floats, with the
// student's merge_split_kernel as the compare-and-swap; the comparisons counted when the tests ask.
#include "../../probes/harness.hpp"

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

// Arms (or, with nulls, disarms) the probe's counters.
void arm(unsigned long long* per_thread, unsigned long long* same_run, unsigned run_mask) {
  CUDA_CHECK(cudaMemcpyToSymbol(grading::g_thread_comparisons, &per_thread, sizeof per_thread));
  CUDA_CHECK(cudaMemcpyToSymbol(grading::g_same_run, &same_run, sizeof same_run));
  CUDA_CHECK(cudaMemcpyToSymbol(grading::g_run_mask, &run_mask, sizeof run_mask));
}

// The counters of every thread of the widest launch the rounds over n floats make.
std::size_t counted_threads(std::size_t n) {
  const std::size_t runs = (n + kRun - 1) / kRun;
  return std::max<std::size_t>(1, runs / 2) * exercise05::kMergeThreads;
}

// The comparisons, in all and by the busiest thread number (summed over the blocks).
void tally(const std::vector<unsigned long long>& per_thread, unsigned long long& comparisons,
           unsigned long long& busiest) {
  std::vector<unsigned long long> by_number(exercise05::kMergeThreads, 0);
  comparisons = 0;
  for (std::size_t i = 0; i < per_thread.size(); ++i) {
    comparisons += per_thread[i];
    by_number[i % exercise05::kMergeThreads] += per_thread[i];
  }
  busiest = *std::max_element(by_number.begin(), by_number.end());
}

}  // namespace

void set_order(std::uint64_t key) {
  CUDA_CHECK(cudaMemcpyToSymbol(grading::g_order_key, &key, sizeof key));
}

void merge_rounds(float* d_data, std::size_t n) {
  rounds(d_data, n);
}

MergeCount merge_rounds_probed(float* d_data, std::size_t n) {
  course::DeviceBuffer<unsigned long long> per_thread(counted_threads(n));
  per_thread.fill_bytes(0);
  arm(per_thread.data(), nullptr, 0);
  MergeCount count;
  count.merges = rounds(d_data, n);
  arm(nullptr, nullptr, 0);
  tally(per_thread.download(), count.comparisons, count.busiest_thread);
  return count;
}

RunComparisons merge_once_probed(float* d_data, std::size_t n, std::size_t first_run,
                                 std::uint32_t run_mask) {
  course::DeviceBuffer<unsigned long long> per_thread(counted_threads(n));
  per_thread.fill_bytes(0);
  course::DeviceBuffer<unsigned long long> same_run(1);
  same_run.fill_bytes(0);
  arm(per_thread.data(), same_run.data(), run_mask);
  const std::size_t pairs = ((n + kRun - 1) / kRun - first_run) / 2;
  grading::watched([&] {
    exercise05::merge_split_kernel<<<static_cast<unsigned>(pairs), exercise05::kMergeThreads>>>(
        d_data, n, first_run * kRun);
  });
  arm(nullptr, nullptr, 0);
  RunComparisons count;
  unsigned long long busiest = 0;
  tally(per_thread.download(), count.comparisons, busiest);
  count.same_run = same_run.download()[0];
  return count;
}

}  // namespace grading05
