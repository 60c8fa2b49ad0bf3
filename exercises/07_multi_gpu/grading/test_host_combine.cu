// Grades exercise 1 of lesson 07: host_combine (host_combine.cuh). Each rank's counts are random
// and large (sums pass 2^32), and they land late: each rank's stream is kept busy for a while
// before its counts are copied in, so an answer that reads them before its rank's stream is done
// reads the poison that was there. 1 to 4 ranks, on distinct GPUs where there are enough. The
// technique is fixed by the answer check: no peer copies, no kernels, no library.
#include <vector>

#include "device_memory.hpp"
#include "gpu_timing.cuh"  // course::queue_ahead: a stream kept busy
#include "host_combine_harness.hpp"
#include "inputs.hpp"
#include "ranks_testing.hpp"
#include "testing.hpp"

namespace {

constexpr int kBins = 256;

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
  grading07::host_combine(ranks.devices, ranks.streams, pointers, host.data(), out.data());
  ranks.synchronize();
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
        // Up to 2^34 each: the sums pass 2^32, and no two bins or ranks are alike.
        const unsigned long long c =
            course::random_u64(course::test::seed() + static_cast<std::uint64_t>(r), b) >> 30;
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
