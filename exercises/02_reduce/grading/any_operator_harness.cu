// The harness of exercise 3 (lesson 02): the largest and smallest element by a reduction built on
// the student's block_reduce, and a kernel that traces the steps of one block's reduction.
#include "../../grading/harness.hpp"

#include <any_operator.cuh>  // the student's file

#include <limits>

#include "../../../common/launch.hpp"
#include "../../../lessons/02_reduce/block_reduce.cuh"  // lesson02::Max, Min (after the student's file)
#include "any_operator_harness.hpp"

namespace grading02 {
namespace {}  // namespace

// A traced value in one 64-bit word, so that shuffles can move it: the values it holds in the low
// half, the steps on its longest path in the high half.
struct CountSteps {
  __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const {
    const unsigned long long steps_a = a >> 32;
    const unsigned long long steps_b = b >> 32;
    const unsigned long long steps = (steps_a > steps_b ? steps_a : steps_b) + 1;
    return (steps << 32) | ((a + b) & 0xFFFFFFFFull);
  }
};

namespace {

template <typename T, typename Op>
__global__ void reduce_kernel(const T* in, std::size_t n, Op op, T identity, T* block_results) {
  T v = identity;
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    v = op(v, in[i]);
  }
  v = exercise02::block_reduce(v, op, identity);
  if (threadIdx.x == blockDim.x - 1) block_results[blockIdx.x] = v;  // any thread has it
}

template <typename T, typename Op>
T reduce(const T* d_in, std::size_t n, int threads, Op op, T identity) {
  const int blocks = 2 * course::sm_count();
  course::DeviceBuffer<T> partial(blocks);
  course::DeviceBuffer<T> result(1);
  grading::watched([&] {
    reduce_kernel<<<blocks, threads>>>(d_in, n, op, identity, partial.data());
    CUDA_CHECK(cudaGetLastError());
    reduce_kernel<<<1, threads>>>(partial.data(), blocks, op, identity, result.data());
  });
  return result.download()[0];
}

template <typename T>
T lowest() {
  return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                              : std::numeric_limits<T>::lowest();
}
template <typename T>
T highest() {
  return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                              : std::numeric_limits<T>::max();
}

__global__ void trace_kernel(unsigned long long* out) {
  out[threadIdx.x] = exercise02::block_reduce(1ull, CountSteps{}, 0ull);
}

}  // namespace

int reduce_max(const int* d_in, std::size_t n, int threads) {
  return reduce(d_in, n, threads, lesson02::Max{}, lowest<int>());
}
int reduce_min(const int* d_in, std::size_t n, int threads) {
  return reduce(d_in, n, threads, lesson02::Min{}, highest<int>());
}
float reduce_max(const float* d_in, std::size_t n, int threads) {
  return reduce(d_in, n, threads, lesson02::Max{}, lowest<float>());
}
float reduce_min(const float* d_in, std::size_t n, int threads) {
  return reduce(d_in, n, threads, lesson02::Min{}, highest<float>());
}

ReduceTrace trace_block_reduce(int threads) {
  course::DeviceBuffer<unsigned long long> out(threads);
  out.fill_bytes(0xFF);
  grading::watched([&] { trace_kernel<<<1, threads>>>(out.data()); });
  ReduceTrace trace;
  for (unsigned long long word : out.download()) {
    trace.values.push_back(static_cast<unsigned>(word & 0xFFFFFFFFull));
    trace.steps.push_back(static_cast<unsigned>(word >> 32));
  }
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes, trace_kernel));
  trace.shared_bytes = attributes.sharedSizeBytes;
  return trace;
}

}  // namespace grading02
