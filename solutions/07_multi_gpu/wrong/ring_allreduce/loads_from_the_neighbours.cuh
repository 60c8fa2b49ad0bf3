// An adversarial answer to exercise 2 (lesson 07): no ring at all, and ring_copy's record fooled
// with empty copies. Each rank makes its 2(G - 1) calls of ring_copy from its left neighbour, as
// the record asks, but of 1 float each, into its own scratch before it is used (the record checks
// that no copy is larger than a chunk, and the number of copies, never that they carry the chunks).
// The data moves by loads instead: rank r's kernel reads chunk r of every rank's vector straight
// from its memory and writes the sum to scratch[r]; once every rank's event says so, each rank's
// kernel reads every finished chunk from the other ranks' scratch into its vector. Events order it
// all, so the held streams change nothing. Where every rank shares one GPU (a grader with one GPU)
// every pointer is that GPU's and the answer is exact, and faster than the ring; on several GPUs
// without peer access, the loads from another GPU's memory fault. How a correct grader should catch
// it: check that each rank receives its 2(G - 1) chunks' worth of floats, not only 2(G - 1) copies
// (a copy shorter than its chunk is wrong), which fails on one GPU too; on two GPUs it already
// fails with an illegal address.
// expect: fails: FAILED:|cudaErrorIllegalAddress
#pragma once

#include <cstddef>

#include "ranks_support.cuh"  // exercise07::Ranks and ring_copy (grading/)

namespace exercise07 {

namespace detail {

struct Vectors {
  const float* at[8];
};

// scratch = chunk [begin, begin + count) of every rank's vector, added up.
__global__ void sum_chunk(Vectors all, int g, std::size_t begin, std::size_t count,
                          float* scratch) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    float sum = 0.0f;
    for (int q = 0; q < g; ++q)
      sum += all.at[q][begin + i];
    scratch[i] = sum;
  }
}

// data[i] = the finished chunk that holds i, from the scratch of the rank that summed it.
__global__ void gather_chunks(Vectors sums, std::size_t chunk, std::size_t n, float* data) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    data[i] = sums.at[i / chunk][i % chunk];
  }
}

inline int blocks_for(std::size_t count) {
  const std::size_t b = (count + 255) / 256;
  return static_cast<int>(b == 0 ? 1 : (b < 4096 ? b : 4096));
}

}  // namespace detail

inline void ring_allreduce(const Ranks& ranks, float* const* data, float* const* scratch,
                           std::size_t n) {
  const int g = ranks.count();
  const std::size_t chunk = (n + g - 1) / g;
  detail::Vectors vectors{};
  detail::Vectors sums{};
  for (int q = 0; q < g; ++q) {
    vectors.at[q] = data[q];
    sums.at[q] = scratch[q];
  }
  std::vector<cudaEvent_t> summed(static_cast<std::size_t>(g));
  std::vector<cudaEvent_t> gathered(static_cast<std::size_t>(g));
  for (int r = 0; r < g; ++r) {
    cudaSetDevice(ranks.devices[r]);
    cudaEventCreateWithFlags(&summed[r], cudaEventDisableTiming);
    cudaEventCreateWithFlags(&gathered[r], cudaEventDisableTiming);
    const int left = (r + g - 1) % g;
    for (int s = 0; s < 2 * (g - 1); ++s)  // what the record counts
      ring_copy(ranks, scratch[r], r, scratch[left], left, 1, ranks.streams[r]);
    const std::size_t begin = r * chunk < n ? r * chunk : n;
    const std::size_t end = (r + 1) * chunk < n ? (r + 1) * chunk : n;
    if (end > begin) {
      detail::sum_chunk<<<detail::blocks_for(end - begin), 256, 0, ranks.streams[r]>>>(
          vectors, g, begin, end - begin, scratch[r]);
    }
    cudaEventRecord(summed[r], ranks.streams[r]);
  }
  for (int r = 0; r < g; ++r) {
    cudaSetDevice(ranks.devices[r]);
    for (int q = 0; q < g; ++q)
      cudaStreamWaitEvent(ranks.streams[r], summed[q], 0);
    if (n > 0) {
      detail::gather_chunks<<<detail::blocks_for(n), 256, 0, ranks.streams[r]>>>(sums, chunk, n,
                                                                                 data[r]);
    }
    cudaEventRecord(gathered[r], ranks.streams[r]);
  }
  for (int r = 0; r < g; ++r) {
    cudaSetDevice(ranks.devices[r]);
    cudaEventDestroy(summed[r]);
    cudaEventDestroy(gathered[r]);
  }
  cudaSetDevice(ranks.devices[0]);
}

}  // namespace exercise07
