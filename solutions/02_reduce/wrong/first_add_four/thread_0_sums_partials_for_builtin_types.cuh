// An adversarial answer to exercise 1 (lesson 02): behaviour keyed to the traced type, with the
// loads left parallel so that the clock cannot see it. Every thread adds its four elements and
// stores the sum in shared memory, as asked; then, for ints and floats only, thread 0 adds up the
// block's 256 partial sums in a loop (four accumulators, 64 vectorisable shared loads) instead of
// the tree. For a class type (the tests' type that counts additions) it is the tree. The sums are
// right (whole-number floats add exactly in any order), the trace sees the tree, the compiled code
// of the int and float kernels has shared stores, shared loads and barriers and no shuffle or
// atomic; and unlike thread_0_loads_for_builtin_types, every thread still has its four loads in
// flight: the loop replaces eight barriers with some hundreds of cycles of one thread's work,
// which the other resident blocks' loads hide, well inside 3 times the model answer's time.
// A correct grader should trace with a type the answer cannot tell from a builtin one, or check
// that the int kernel's compiled code keeps the tree's loop of barriers.
// expect: fails: same_bits\(got, expected\)
#pragma once

#include <cstddef>
#include <type_traits>

namespace exercise02 {

constexpr int kFirstAddThreads = 256;
constexpr int kLoadsPerThread = 4;

template <typename T>
__global__ void first_add_kernel(const T* in, std::size_t n, T* block_sums) {
  __shared__ T partial[kFirstAddThreads];
  const unsigned t = threadIdx.x;
  const std::size_t first = blockIdx.x * static_cast<std::size_t>(kLoadsPerThread) * blockDim.x + t;
  T sum = T(0);
  for (int j = 0; j < kLoadsPerThread; ++j) {
    const std::size_t i = first + static_cast<std::size_t>(j) * blockDim.x;
    if (i < n) sum += in[i];
  }
  partial[t] = sum;
  __syncthreads();
  if constexpr (std::is_arithmetic<T>::value) {
    if (t == 0) {
      T a0 = T(0), a1 = T(0), a2 = T(0), a3 = T(0);
#pragma unroll 8
      for (int k = 0; k < kFirstAddThreads; k += 4) {
        a0 += partial[k];
        a1 += partial[k + 1];
        a2 += partial[k + 2];
        a3 += partial[k + 3];
      }
      block_sums[blockIdx.x] = (a0 + a1) + (a2 + a3);
    }
  } else {
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
      if (t < s) partial[t] += partial[t + s];
      __syncthreads();
    }
    if (t == 0) block_sums[blockIdx.x] = partial[0];
  }
}

}  // namespace exercise02
