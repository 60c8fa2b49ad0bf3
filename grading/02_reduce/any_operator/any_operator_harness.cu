// The harness of exercise 3 (lesson 02): the largest and smallest element by a reduction built on
// the student's block_reduce, kernels that trace the steps of every block's reduction for every
// type, on one block and on the first pass's grid, and a kernel that calls it many times in a row.
#include "../../probes/harness.hpp"
#include "../../probes/shuffle_probe.cuh"  // before the student's file: its shuffles are counted

#include <any_operator.cuh>  // the student's file

#include <climits>
#include <cstring>
#include <limits>

#include <02_reduce/block_reduce.cuh>  // lesson02::Max, Min (after the student's file)

#include "../../../common/launch.hpp"
#include "any_operator_harness.hpp"

namespace grading02 {

// The counting operators, one for each type: a traced value holds how many threads' values it
// holds and the steps on its longest path, in its bits, so that shuffles move it like any other.
// A value that holds none is the identity, and combining with it changes nothing.
struct CountSteps64 {  // values in the low half, steps in the high half
  __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const {
    if ((a & 0xFFFFFFFFull) == 0) return b;
    if ((b & 0xFFFFFFFFull) == 0) return a;
    const unsigned long long steps = ((a >> 32) > (b >> 32) ? (a >> 32) : (b >> 32)) + 1;
    return (steps << 32) | ((a + b) & 0xFFFFFFFFull);
  }
};
struct CountSteps32 {  // values in the low 16 bits, steps in the next 15
  __device__ int operator()(int a, int b) const {
    if ((a & 0xFFFF) == 0) return b;
    if ((b & 0xFFFF) == 0) return a;
    int steps = ((a >> 16) > (b >> 16) ? (a >> 16) : (b >> 16)) + 1;
    steps = steps < 0x7FFF ? steps : 0x7FFF;
    return (steps << 16) | ((a & 0xFFFF) + (b & 0xFFFF));
  }
};
// A float in [2, 4): values in the low 11 bits of the mantissa, steps in the 12 above them.
constexpr unsigned kFloatBase = 0x40000000u;
struct CountStepsFloat {
  __device__ float operator()(float a, float b) const {
    const unsigned ua = __float_as_uint(a), ub = __float_as_uint(b);
    if ((ua & 0x7FFu) == 0) return b;
    if ((ub & 0x7FFu) == 0) return a;
    const unsigned sa = (ua >> 11) & 0xFFFu, sb = (ub >> 11) & 0xFFFu;
    unsigned steps = (sa > sb ? sa : sb) + 1;
    steps = steps < 0xFFFu ? steps : 0xFFFu;
    return __uint_as_float(kFloatBase | (steps << 11) | ((ua & 0x7FFu) + (ub & 0x7FFu)));
  }
};

// The kernels, in a namespace with a name, which the compiled-code check's messages show.
namespace kernels {

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
__global__ void trace_kernel(T one, Op op, T identity, T* out) {
  out[blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x] =
      exercise02::block_reduce(one, op, identity);
}

__global__ void repeated_max_kernel(const int* values, int rounds, unsigned* out) {
  const std::size_t i = course::first_index();
  const int v = values[i];
  unsigned acc = 0;
  for (int r = 0; r < rounds; ++r)
    acc = acc * 31u +
          static_cast<unsigned>(exercise02::block_reduce(v + (r & 7), lesson02::Max{}, INT_MIN));
  out[i] = acc;
}

}  // namespace kernels

int trace_blocks() {
  return 2 * course::sm_count();
}

namespace {

template <typename T, typename Op>
T reduce(const T* d_in, std::size_t n, int threads, Op op, T identity) {
  const int blocks = 2 * course::sm_count();
  course::DeviceBuffer<T> partial(blocks);
  course::DeviceBuffer<T> result(1);
  grading::watched([&] {
    kernels::reduce_kernel<<<blocks, threads>>>(d_in, n, op, identity, partial.data());
    CUDA_CHECK(cudaGetLastError());
    kernels::reduce_kernel<<<1, threads>>>(partial.data(), blocks, op, identity, result.data());
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

// The traced launches: one block (as the reduction's second pass is), then trace_blocks() blocks
// (as its first pass is), so that a path chosen by the grid's size is traced either way. Thread t
// of block b of the two launches, one after the other, at b * threads + t.
template <typename T, typename Op>
std::vector<T> traced_results(int threads, T one, Op op, T identity, ReduceTrace* trace) {
  std::vector<T> results;
  trace->blocks = 0;
  for (const int blocks : {1, trace_blocks()}) {
    const std::size_t count = static_cast<std::size_t>(blocks) * threads;
    course::DeviceBuffer<T> out(count);
    out.fill_bytes(0xFF);
    const grading::ShuffleCounts counts = grading::probe_shuffles(
        count, [&] { kernels::trace_kernel<<<blocks, threads>>>(one, op, identity, out.data()); });
    trace->blocks += blocks;
    trace->shuffles.insert(trace->shuffles.end(), counts.shuffles.begin(), counts.shuffles.end());
    trace->stray_masks.insert(trace->stray_masks.end(), counts.stray_masks.begin(),
                              counts.stray_masks.end());
    const std::vector<T> got = out.download();
    results.insert(results.end(), got.begin(), got.end());
  }
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernels::trace_kernel<T, Op>));
  trace->shared_bytes = attributes.sharedSizeBytes;
  return results;
}

template <typename Kernel>
KernelShared shared_of(const char* name, Kernel kernel, std::size_t value_bytes) {
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  return {name, attributes.sharedSizeBytes, value_bytes};
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
unsigned long long reduce_max(const unsigned long long* d_in, std::size_t n, int threads) {
  return reduce(d_in, n, threads, lesson02::Max{}, lowest<unsigned long long>());
}
unsigned long long reduce_min(const unsigned long long* d_in, std::size_t n, int threads) {
  return reduce(d_in, n, threads, lesson02::Min{}, highest<unsigned long long>());
}

const char* traced_name(Traced traced) {
  return traced == Traced::int32     ? "int"
         : traced == Traced::float32 ? "float"
                                     : "unsigned long long";
}

ReduceTrace trace_block_reduce(Traced traced, int threads) {
  ReduceTrace trace;
  if (traced == Traced::uint64) {
    for (unsigned long long word : traced_results(threads, 1ull, CountSteps64{}, 0ull, &trace)) {
      trace.values.push_back(static_cast<unsigned>(word & 0xFFFFFFFFull));
      trace.steps.push_back(static_cast<unsigned>(word >> 32));
    }
  } else if (traced == Traced::int32) {
    for (int word : traced_results(threads, 1, CountSteps32{}, 0, &trace)) {
      trace.values.push_back(static_cast<unsigned>(word) & 0xFFFFu);
      trace.steps.push_back((static_cast<unsigned>(word) >> 16) & 0x7FFFu);
    }
  } else {
    float one = 0.0f, identity = 0.0f;
    const unsigned one_bits = kFloatBase | 1u;
    std::memcpy(&one, &one_bits, sizeof one);
    std::memcpy(&identity, &kFloatBase, sizeof identity);
    for (float value : traced_results(threads, one, CountStepsFloat{}, identity, &trace)) {
      unsigned bits = 0;
      std::memcpy(&bits, &value, sizeof bits);
      trace.values.push_back(bits & 0x7FFu);
      trace.steps.push_back((bits >> 11) & 0xFFFu);
    }
  }
  return trace;
}

std::vector<KernelShared> shared_memory_of_every_kernel() {
  using kernels::reduce_kernel;
  using kernels::trace_kernel;
  using lesson02::Max;
  using lesson02::Min;
  using ull = unsigned long long;
  return {
      shared_of("reduce_kernel<int, Max>", reduce_kernel<int, Max>, sizeof(int)),
      shared_of("reduce_kernel<int, Min>", reduce_kernel<int, Min>, sizeof(int)),
      shared_of("reduce_kernel<float, Max>", reduce_kernel<float, Max>, sizeof(float)),
      shared_of("reduce_kernel<float, Min>", reduce_kernel<float, Min>, sizeof(float)),
      shared_of("reduce_kernel<unsigned long long, Max>", reduce_kernel<ull, Max>, sizeof(ull)),
      shared_of("reduce_kernel<unsigned long long, Min>", reduce_kernel<ull, Min>, sizeof(ull)),
      shared_of("trace_kernel<int>", trace_kernel<int, CountSteps32>, sizeof(int)),
      shared_of("trace_kernel<float>", trace_kernel<float, CountStepsFloat>, sizeof(float)),
      shared_of("trace_kernel<unsigned long long>", trace_kernel<ull, CountSteps64>, sizeof(ull)),
      shared_of("repeated_max_kernel", kernels::repeated_max_kernel, sizeof(int)),
  };
}

int repeated_blocks() {
  return 2 * course::sm_count();
}

void repeated_max(const int* d_values, unsigned* d_out) {
  grading::watched([&] {
    kernels::repeated_max_kernel<<<repeated_blocks(), kRepeatThreads>>>(d_values, kRepeatRounds,
                                                                        d_out);
  });
}

}  // namespace grading02
