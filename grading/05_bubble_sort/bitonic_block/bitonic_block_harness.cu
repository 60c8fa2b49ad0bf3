// The harness of exercise 4 (lesson 05): one block loads the floats into shared memory, padded
// with the last float up to a power of two, calls the student's bitonic_sort_shared, and stores
// them back; with the compare-and-swaps logged when the tests ask.
#include "../../probes/harness.hpp"

#include <bitonic_block.cuh>  // the student's file

#include <algorithm>
#include <stdexcept>

#include "bitonic_block_harness.hpp"

namespace grading05 {
namespace {

#ifdef GRADING_SASS
// For the compiled-code check (scripts/check_compiled.py): the student's network in a function of
// its own, so that its instructions are read apart from this harness's loads, stores and barriers.
__device__ __noinline__ void students_network(float* s, unsigned size) {
  exercise05::bitonic_sort_shared(s, size);
}
#else
__device__ inline void students_network(float* s, unsigned size) {
  exercise05::bitonic_sort_shared(s, size);
}
#endif

// Block b sorts in[b n, (b + 1) n) into out[b n, (b + 1) n).
__global__ void bitonic_block_kernel(const float* in, float* out, std::size_t n, unsigned size,
                                     unsigned* shared_base) {
  extern __shared__ float s[];
  in += blockIdx.x * n;
  out += blockIdx.x * n;
  for (unsigned i = threadIdx.x; i < size; i += blockDim.x)
    s[i] = i < n ? in[i] : lesson05::last_float();
  if (threadIdx.x == 0 && shared_base != nullptr) {
    *shared_base = static_cast<unsigned>(__cvta_generic_to_shared(s));
  }
  __syncthreads();
  students_network(s, size);
  __syncthreads();
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = s[i];
}

unsigned power_of_two_at_least(std::size_t n) {
  unsigned size = 1;
  while (size < n)
    size *= 2;
  return size;
}

void sort_blocks(const float* d_in, float* d_out, std::size_t n, std::size_t blocks,
                 unsigned* shared_base) {
  if (n < 1 || n > kBitonicBlockMax) throw std::invalid_argument("n must be 1 to 8192");
  const unsigned size = power_of_two_at_least(n);
  const unsigned threads = std::max(32u, std::min(1024u, size / 2));
  grading::watched([&] {
    bitonic_block_kernel<<<static_cast<unsigned>(blocks), threads, size * sizeof(float)>>>(
        d_in, d_out, n, size, shared_base);
  });
}

}  // namespace

void bitonic_block_sort(const float* d_in, float* d_out, std::size_t n) {
  sort_blocks(d_in, d_out, n, 1, nullptr);
}

void bitonic_blocks_sort(const float* d_in, float* d_out, std::size_t blocks) {
  sort_blocks(d_in, d_out, kBitonicBlockMax, blocks, nullptr);
}

NetworkRun bitonic_blocks_network(const std::vector<float>& host, unsigned size, unsigned salt,
                                  std::size_t logged) {
  if (size < 1 || size > kBitonicBlockMax || (size & (size - 1)) != 0) {
    throw std::invalid_argument("the network runs on a power of two of floats, up to 8192");
  }
  const std::size_t blocks = host.size() / size;
  if (blocks < 1 || host.size() % size != 0 || logged >= blocks) {
    throw std::invalid_argument("the input is a whole number of blocks, the logged one of them");
  }
  const course::DeviceBuffer<float> in(host);
  course::DeviceBuffer<float> out(host.size());
  const unsigned capacity = 4 * 1024 * 1024;
  course::DeviceBuffer<uint2> log(capacity);
  course::DeviceBuffer<unsigned> counters(2);  // calls, the shared array's base
  counters.fill_bytes(0);
  grading::NetworkProbe probe{
      log.data(), counters.data(), capacity, salt, 1000, static_cast<unsigned>(logged)};
  CUDA_CHECK(cudaMemcpyToSymbol(grading::g_network_probe, &probe, sizeof probe));
  // Every block writes the shared array's base; all blocks' arrays start at the same shared
  // address.
  sort_blocks(in.data(), out.data(), size, blocks, counters.data() + 1);
  probe = grading::NetworkProbe{};
  CUDA_CHECK(cudaMemcpyToSymbol(grading::g_network_probe, &probe, sizeof probe));
  const std::vector<unsigned> got = counters.download();
  const std::vector<uint2> entries = log.download();
  NetworkRun run;
  for (unsigned c = 0; c < std::min(got[0], capacity); ++c) {
    run.calls.emplace_back((entries[c].x - got[1]) / sizeof(float),
                           (entries[c].y - got[1]) / sizeof(float));
  }
  const std::vector<float> all = out.download();
  run.out.assign(all.begin() + logged * size, all.begin() + (logged + 1) * size);
  return run;
}

NetworkRun bitonic_block_network(const std::vector<float>& host, unsigned salt) {
  return bitonic_blocks_network(host, static_cast<unsigned>(host.size()), salt, 0);
}

}  // namespace grading05
