// A wrong answer to exercise 1 (lesson 05): two answers in one file, chosen by the macro that the
// compiled-code check compiles with. The check would read the model answer's kernel; the tests
// would run v1 inside the first launch, one block with a barrier between phases. The answer check
// refuses the macro's name.
// expect: rejected: uses GRADING_SASS
#pragma once

#include <cstddef>

#include "phase_launches_support.cuh"

namespace exercise05 {

constexpr int kPhaseThreads = 256;

constexpr std::size_t phases_for(std::size_t n) {
  return n;
}

#ifdef GRADING_SASS
__global__ void odd_even_phase_kernel(float* data, std::size_t n, std::size_t phase) {
  const std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t i = 2 * p + phase % 2;
  if (i + 1 < n) order_pair(data[i], data[i + 1]);
}
#else
__global__ void odd_even_phase_kernel(float* data, std::size_t n, std::size_t phase) {
  if (phase != 0 || blockIdx.x != 0) return;
  for (std::size_t p = 0; p < n; ++p) {
    for (std::size_t i = 2 * threadIdx.x + p % 2; i + 1 < n; i += 2 * blockDim.x)
      order_pair(data[i], data[i + 1]);
    __syncthreads();
  }
}
#endif

}  // namespace exercise05
