// The library: cuBLAS's cublasSdot, as a user would call it.
#pragma once

#include <cublas_v2.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace lesson03 {

inline void cublas_check(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, call, cublasGetStatusName(status),
               cublasGetStatusString(status));
  std::fflush(stderr);
  std::exit(1);
}
#define CUBLAS_CHECK(call) ::lesson03::cublas_check((call), #call, __FILE__, __LINE__)

// cublasSdot as a user would call it, with the result left on the device (pointer mode device),
// as every version's is. The 64-bit interface (cublasSdot_64) takes n past 2^31.
class CublasDot {
 public:
  CublasDot() {
    CUBLAS_CHECK(cublasCreate(&handle_));
    CUBLAS_CHECK(cublasSetPointerMode(handle_, CUBLAS_POINTER_MODE_DEVICE));
  }
  ~CublasDot() { cublasDestroy(handle_); }
  CublasDot(const CublasDot&) = delete;
  CublasDot& operator=(const CublasDot&) = delete;

  void operator()(const float* a, const float* b, std::size_t n, float* c,
                  cudaStream_t stream = nullptr) {
    CUBLAS_CHECK(cublasSetStream(handle_, stream));
    CUBLAS_CHECK(cublasSdot_64(handle_, static_cast<std::int64_t>(n), a, 1, b, 1, c));
  }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace lesson03
