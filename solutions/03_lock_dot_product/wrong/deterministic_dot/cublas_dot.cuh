// A wrong answer to exercise 2 (lesson 03): a library call. cuBLAS's dot product is accurate, but
// the exercise is to write the kernels; the answer check refuses it.
// expect: rejected: uses cuBLAS
#pragma once

#include <cstddef>

#include <cublas_v2.h>

namespace exercise03 {

constexpr std::size_t kChunk = 4096;
constexpr int kThreads = 256;

__global__ void chunk_dots(const float*, const float*, std::size_t, float*) {}
__global__ void add_partials(const float*, std::size_t, float*) {}

inline void dot_with_cublas(cublasHandle_t handle, const float* a, const float* b, int n,
                            float* result) {
  cublasSdot(handle, n, a, 1, b, 1, result);
}

}  // namespace exercise03
