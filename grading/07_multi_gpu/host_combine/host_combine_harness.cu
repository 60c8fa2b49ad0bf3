// The harness of exercise 1 (lesson 07): calls the student's host_combine under the watchdog,
// and records every copy it makes. While the student's file is read, cudaMemcpy and
// cudaMemcpyAsync name the recording functions below (object-like macros, so a name in
// parentheses is recorded too; the answer check refuses #undef and the other copy functions): the
// tests see where each copy went, whatever its kind says, so a peer copy written as
// cudaMemcpyDefault is seen for what it is.
#include "../../probes/harness.hpp"

#include <cstddef>
#include <vector>

#include <ranks_support.cuh>  // the staged copy the answer includes, before the recording names
#include "host_combine_harness.hpp"

namespace grading07 {
namespace {

std::vector<HostCopy> g_copies;

// -1 for host memory (pageable or pinned), else the GPU that holds `p`.
int where(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return -1;
  }
  return a.type == cudaMemoryTypeDevice ? a.device : -1;
}

}  // namespace

cudaError_t recorded_memcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  g_copies.push_back({src, dst, bytes, where(src), where(dst)});
  return cudaMemcpy(dst, src, bytes, kind);
}

cudaError_t recorded_memcpy_async(void* dst, const void* src, std::size_t bytes,
                                  cudaMemcpyKind kind, cudaStream_t stream = nullptr) {
  g_copies.push_back({src, dst, bytes, where(src), where(dst)});
  return cudaMemcpyAsync(dst, src, bytes, kind, stream);
}

}  // namespace grading07

#define cudaMemcpy ::grading07::recorded_memcpy
#define cudaMemcpyAsync ::grading07::recorded_memcpy_async
#include <host_combine.cuh>  // the student's file
#undef cudaMemcpy
#undef cudaMemcpyAsync

static_assert(exercise07::kBins == 256, "the exercise's constants are part of its statement");

namespace grading07 {

std::vector<HostCopy> host_combine(const std::vector<int>& devices,
                                   const std::vector<cudaStream_t>& streams,
                                   const std::vector<const unsigned long long*>& partials,
                                   unsigned long long* host, unsigned long long* out) {
  g_copies.clear();
  const exercise07::Ranks ranks{devices, streams};
  grading::watched([&] { exercise07::host_combine(ranks, partials.data(), host, out); });
  return g_copies;
}

}  // namespace grading07
