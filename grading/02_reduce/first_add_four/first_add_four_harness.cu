// The harness of exercise 1 (lesson 02): runs the student's first_add_kernel in passes, on ints and
// floats, and once on a type that traces the additions.
#include "../../probes/harness.hpp"

#include <first_add_four.cuh>  // the student's file

#include "../../../common/launch.hpp"
#include "first_add_four_harness.hpp"

static_assert(exercise02::kFirstAddThreads * exercise02::kLoadsPerThread == grading02::kPerBlock,
              "the exercise's constants are part of its statement: keep them");

namespace grading02 {
namespace {

// Null, or one count per thread of the traced launch: how many additions of Traced it made. Here,
// after the student's file, which cannot name it.
__device__ unsigned* g_thread_additions;

}  // namespace

// A sum that knows how it was made: the elements it holds, and the additions on its longest path;
// each addition is also counted against the thread that made it.
struct Traced {
  unsigned long long elements;
  unsigned additions;
  Traced() = default;
  __host__ __device__ Traced(int zero) : elements(0), additions(0) { (void)zero; }
  __host__ __device__ Traced(unsigned long long e, unsigned a) : elements(e), additions(a) {}
  __device__ friend Traced operator+(const Traced& a, const Traced& b) {
    if (g_thread_additions != nullptr)
      ++g_thread_additions[blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x];
    return {a.elements + b.elements, (a.additions > b.additions ? a.additions : b.additions) + 1};
  }
  __device__ Traced& operator+=(const Traced& b) { return *this = *this + b; }
};

namespace {

__global__ void one_element_each(Traced* x, std::size_t n) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    x[i] = Traced(1, 0);
  }
}

std::size_t blocks_for(std::size_t n) {
  return (n + kPerBlock - 1) / kPerBlock;
}

template <typename T>
void sum_in_passes(const T* d_in, std::size_t n, T* d_result) {
  course::DeviceBuffer<T> a(blocks_for(n));
  course::DeviceBuffer<T> b(blocks_for(n));
  const T* source = d_in;
  std::size_t count = n;
  bool into_a = true;
  grading::watched([&] {
    do {
      const std::size_t blocks = blocks_for(count);
      T* destination = blocks == 1 ? d_result : (into_a ? a.data() : b.data());
      exercise02::first_add_kernel<<<static_cast<unsigned>(blocks), exercise02::kFirstAddThreads>>>(
          source, count, destination);
      CUDA_CHECK(cudaGetLastError());
      source = destination;
      count = blocks;
      into_a = !into_a;
    } while (count > 1);
  });
}

}  // namespace

void first_add_sum(const int* d_in, std::size_t n, int* d_result) {
  sum_in_passes(d_in, n, d_result);
}
void first_add_sum(const float* d_in, std::size_t n, float* d_result) {
  sum_in_passes(d_in, n, d_result);
}

std::vector<SumTrace> first_add_trace(std::size_t n, std::vector<unsigned>* thread_additions) {
  course::DeviceBuffer<Traced> in(n);
  course::DeviceBuffer<Traced> sums(blocks_for(n));
  course::DeviceBuffer<unsigned> additions(blocks_for(n) * exercise02::kFirstAddThreads);
  additions.fill_bytes(0);
  one_element_each<<<256, 256>>>(in.data(), n);
  CUDA_CHECK_LAUNCH();
  unsigned* counting = additions.data();
  CUDA_CHECK(cudaMemcpyToSymbol(g_thread_additions, &counting, sizeof counting));
  grading::watched([&] {
    exercise02::
        first_add_kernel<<<static_cast<unsigned>(blocks_for(n)), exercise02::kFirstAddThreads>>>(
            in.data(), n, sums.data());
  });
  counting = nullptr;
  CUDA_CHECK(cudaMemcpyToSymbol(g_thread_additions, &counting, sizeof counting));
  std::vector<SumTrace> traces;
  for (const Traced& t : sums.download())
    traces.push_back({t.elements, t.additions});
  if (thread_additions != nullptr) *thread_additions = additions.download();
  return traces;
}

}  // namespace grading02
