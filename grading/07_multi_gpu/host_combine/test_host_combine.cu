// Grades exercise 1 of lesson 07: host_combine (host_combine.cuh). Each rank's counts are random
// and large (sums pass 2^32; half the bins pass a double's 53 bits), and they land late: each
// rank's stream is kept busy for a while before its counts are copied in, so an answer that reads
// them before its rank's stream is done reads the poison that was there. 1 to 4 ranks, spread over
// the GPUs (distinct ones where there are enough: an answer that waits on one GPU only fails
// there). The technique is seen twice: the answer check refuses peer copies, kernels and libraries
// by name, and the harness records every cudaMemcpy and cudaMemcpyAsync the answer makes, with
// where each end lies, so a peer copy of another kind (cudaMemcpyDefault) fails: every rank's
// counts must go to host memory, and no copy may go from one GPU's memory to a GPU's.
#include <string>
#include <vector>

#include "device_memory.hpp"
#include "gpu_timing.cuh"  // course::queue_ahead: a stream kept busy
#include "host_combine_harness.hpp"
#include "inputs.hpp"
#include "ranks_testing.hpp"
#include "testing.hpp"

namespace {

constexpr int kBins = 256;

// "" when the copies stage every rank's counts in host memory and none goes GPU to GPU; else what
// is wrong.
std::string staging_problem(const std::vector<grading07::HostCopy>& copies,
                            const std::vector<const unsigned long long*>& partials) {
  for (const grading07::HostCopy& c : copies) {
    if (c.src_device >= 0 && c.dst_device >= 0) {
      return "a copy of " + std::to_string(c.bytes) + " bytes from GPU " +
             std::to_string(c.src_device) + "'s memory to GPU " + std::to_string(c.dst_device) +
             "'s: the partials go through host memory";
    }
  }
  for (std::size_t r = 0; r < partials.size(); ++r) {
    bool staged = false;
    for (const grading07::HostCopy& c : copies)
      staged = staged || (c.src == partials[r] && c.dst_device < 0);
    if (!staged) return "rank " + std::to_string(r) + "'s counts were never copied to the host";
  }
  return "";
}

// One round: every rank's counts land late on its stream; then the student's combine.
std::vector<unsigned long long> combine_late_counts(
    grading07::TestRanks& ranks, const std::vector<std::vector<unsigned long long>>& counts) {
  const int g = ranks.count();
  std::vector<course::DeviceBuffer<unsigned long long>> partials;
  std::vector<const unsigned long long*> pointers;
  course::PinnedBuffer<unsigned long long> staged(static_cast<std::size_t>(g) * kBins);
  course::PinnedBuffer<unsigned long long> host(static_cast<std::size_t>(g) * kBins);
  for (std::size_t i = 0; i < host.size(); ++i)
    host[i] = 0xDEADBEEFDEADBEEFull;  // what an early read of `host` finds
  for (int r = 0; r < g; ++r) {
    CUDA_CHECK(cudaSetDevice(ranks.devices[r]));
    partials.emplace_back(kBins);
    partials.back().fill_bytes(0xFF);  // what an early read of the partial finds
    pointers.push_back(partials.back().data());
  }
  CUDA_CHECK(cudaSetDevice(ranks.devices[0]));
  course::DeviceBuffer<unsigned long long> out(kBins);
  out.fill_bytes(0xFF);
  ranks.synchronize();  // the poison is in place before the counts start on their way
  for (int r = 0; r < g; ++r) {
    CUDA_CHECK(cudaSetDevice(ranks.devices[r]));
    std::copy(counts[r].begin(), counts[r].end(), staged.data() + r * kBins);
    course::queue_ahead(ranks.streams[r], 20'000'000ull + 5'000'000ull * r);  // 20 ms and more
    CUDA_CHECK(cudaMemcpyAsync(partials[r].data(), staged.data() + r * kBins,
                               kBins * sizeof(unsigned long long), cudaMemcpyHostToDevice,
                               ranks.streams[r]));
  }
  CUDA_CHECK(cudaSetDevice(ranks.devices[0]));
  const std::vector<grading07::HostCopy> copies =
      grading07::host_combine(ranks.devices, ranks.streams, pointers, host.data(), out.data());
  ranks.synchronize();
  REQUIRE(staging_problem(copies, pointers) == "");
  return out.download();
}

}  // namespace

TEST_CASE("host_combine adds every rank's counts, in 64 bits, once they have landed", "[gpu]") {
  for (int g = 1; g <= 4; ++g) {
    grading07::TestRanks ranks(g);
    std::vector<std::vector<unsigned long long>> counts(static_cast<std::size_t>(g));
    std::vector<unsigned long long> expected(kBins, 0);
    for (int r = 0; r < g; ++r) {
      for (int b = 0; b < kBins; ++b) {
        // Up to 2^34 each in the lower half of the bins: the sums pass 2^32, and no two bins or
        // ranks are alike. Up to 2^61 and odd in the upper half (four ranks' sum stays below
        // 2^63): more than a double's 53 bits hold exactly, so only 64-bit integers add them.
        const std::uint64_t bits =
            course::random_u64(course::test::seed() + static_cast<std::uint64_t>(r), b);
        const unsigned long long c = b < kBins / 2 ? bits >> 30 : (bits >> 3) | 1u;
        counts[r].push_back(c);
        expected[b] += c;
      }
    }
    for (int round = 0; round < 2; ++round) {
      INFO(g << " ranks on GPUs " << ranks.devices[0] << ".." << ranks.devices.back() << ", round "
             << round);
      REQUIRE(course::test::mismatch(combine_late_counts(ranks, counts), expected) == "");
    }
  }
}

TEST_CASE("timing: four ranks' counts, already landed", "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR): four copies down, a
  // sum on the host, one copy up; an answer that waits on more than it needs to, or copies more,
  // takes several times as long.
  grading07::TestRanks ranks(4);
  std::vector<course::DeviceBuffer<unsigned long long>> partials;
  std::vector<const unsigned long long*> pointers;
  std::vector<unsigned long long> expected(kBins, 0);
  for (int r = 0; r < 4; ++r) {
    CUDA_CHECK(cudaSetDevice(ranks.devices[r]));
    std::vector<unsigned long long> counts(kBins);
    for (int b = 0; b < kBins; ++b) {
      counts[b] = course::random_u64(course::test::seed() + r, b) >> 30;
      expected[b] += counts[b];
    }
    partials.emplace_back(counts);
    pointers.push_back(partials.back().data());
  }
  CUDA_CHECK(cudaSetDevice(ranks.devices[0]));
  course::PinnedBuffer<unsigned long long> host(4 * kBins);
  course::DeviceBuffer<unsigned long long> out(kBins);
  ranks.synchronize();
  course::test::report_time([&] {
    grading07::host_combine(ranks.devices, ranks.streams, pointers, host.data(), out.data());
  });
  REQUIRE(course::test::mismatch(out.download(), expected) == "");
}
