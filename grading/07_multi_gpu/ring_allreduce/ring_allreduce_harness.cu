// The harness of exercise 2 (lesson 07): calls the student's ring_allreduce under the watchdog, and
// defines ring_copy, which records each copy and holds up the streams of every other rank for a
// millisecond before each of their copies (the odd ranks' on one call, the even ranks' on the
// next), as GPUs of unequal load would: a step that does not wait for its neighbours then reads
// what they have not yet written.
#include "../../../common/gpu_timing.cuh"
#include "../../probes/harness.hpp"

#include <ring_allreduce.cuh>  // the student's file

#include "ring_allreduce_harness.hpp"

namespace {
std::vector<grading07::Copy> g_copies;
int g_calls = 0;
bool g_hold = true;
}  // namespace

namespace exercise07 {

void ring_copy(const Ranks& ranks, float* dst, int to, const float* src, int from,
               std::size_t count, cudaStream_t stream) {
  g_copies.push_back({from, to, count});
  if (from < 0 || to < 0 || from >= ranks.count() || to >= ranks.count()) return;  // recorded
  for (int r = 0; r < ranks.count(); ++r) {
    if (g_hold && ranks.streams[static_cast<std::size_t>(r)] == stream && r % 2 == g_calls % 2) {
      course::queue_ahead(stream, 1'000'000ull);  // this rank's GPU is busy for 1 ms
    }
  }
  CUDA_CHECK(cudaMemcpyPeerAsync(dst, ranks.devices[static_cast<std::size_t>(to)], src,
                                 ranks.devices[static_cast<std::size_t>(from)],
                                 count * sizeof(float), stream));
}

}  // namespace exercise07

namespace grading07 {

std::vector<Copy> ring_allreduce(const std::vector<int>& devices,
                                 const std::vector<cudaStream_t>& streams,
                                 const std::vector<float*>& data,
                                 const std::vector<float*>& scratch, std::size_t n, bool hold) {
  g_copies.clear();
  g_hold = hold;
  ++g_calls;
  const exercise07::Ranks ranks{devices, streams};
  grading::watched([&] {
    exercise07::ring_allreduce(ranks, data.data(), scratch.data(), n);
    for (std::size_t r = 0; r < devices.size(); ++r) {  // every rank's stream, not just this GPU
      CUDA_CHECK(cudaSetDevice(devices[r]));
      CUDA_CHECK(cudaStreamSynchronize(streams[r]));
    }
    CUDA_CHECK(cudaSetDevice(devices[0]));
  });
  return g_copies;
}

}  // namespace grading07
