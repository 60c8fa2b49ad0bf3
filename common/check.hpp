// Checked CUDA calls: every runtime call and every launch in the course goes through these.
//
//   CUDA_CHECK(cudaMalloc(&p, bytes));   // on failure: file, line, the call, the error; exit 1
//   my_kernel<<<grid, block>>>(...);
//   CUDA_CHECK_LAUNCH();                 // a bad launch configuration is reported here
//
// Host-only header: it includes the runtime API, not device code, so .cpp files may use it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace course {

// The one-line report CUDA_CHECK prints, for example
//   main.cu:42: cudaMalloc(&p, bytes) failed: cudaErrorMemoryAllocation (out of memory)
inline std::string cuda_error_message(cudaError_t error, const char* call, const char* file,
                                      int line) {
  std::string message = std::string(file) + ":" + std::to_string(line) + ": " + call +
                        " failed: " + cudaGetErrorName(error) + " (" + cudaGetErrorString(error) +
                        ")";
  // The errors a student meets first get a hint that names the fix (docs/setup.md has more).
  if (error == cudaErrorNoKernelImageForDevice || error == cudaErrorUnsupportedPtxVersion) {
    message +=
        "; hint: the program was built for another GPU: reconfigure with "
        "-DCMAKE_CUDA_ARCHITECTURES=native";
  } else if (error == cudaErrorInsufficientDriver) {
    message += "; hint: the NVIDIA driver is older than this CUDA toolkit: update the driver";
  } else if (error == cudaErrorNoDevice) {
    message += "; hint: no CUDA GPU is visible (check nvidia-smi)";
  }
  return message;
}

[[noreturn]] inline void cuda_fail(cudaError_t error, const char* call, const char* file,
                                   int line) {
  std::fprintf(stderr, "%s\n", cuda_error_message(error, call, file, line).c_str());
  std::fflush(stderr);
  std::exit(1);
}

// Whether a CUDA device can be used, and if not, why. Creating the context here (cudaFree(0))
// also catches a driver that is too old, or a GPU that is busy in exclusive mode.
inline bool probe_gpu(std::string* why_not = nullptr) {
  int count = 0;
  cudaError_t error = cudaGetDeviceCount(&count);
  if (error == cudaSuccess && count == 0) error = cudaErrorNoDevice;
  if (error == cudaSuccess) error = cudaFree(nullptr);
  if (error == cudaSuccess) return true;
  if (why_not) {
    *why_not = std::string(cudaGetErrorName(error)) + ": " + cudaGetErrorString(error);
    // The runtime says this both when the driver is too old and when there is no driver at all.
    if (error == cudaErrorInsufficientDriver) {
      *why_not += "; no NVIDIA driver is loaded, or it is older than this CUDA runtime";
    }
  }
  cudaGetLastError();  // clear the error, so the next checked call does not report it again
  return false;
}

}  // namespace course

#define CUDA_CHECK(call)                                                   \
  do {                                                                     \
    const cudaError_t course_check_error_ = (call);                        \
    if (course_check_error_ != cudaSuccess) {                              \
      ::course::cuda_fail(course_check_error_, #call, __FILE__, __LINE__); \
    }                                                                      \
  } while (0)

// After a <<<...>>> launch: reports a bad configuration at once. Errors inside the kernel
// surface at the next synchronising call, which is checked too. Define COURSE_SYNC_LAUNCHES
// to synchronise after every launch, so a fault is reported at the launch that caused it.
#ifdef COURSE_SYNC_LAUNCHES
#define CUDA_CHECK_LAUNCH()              \
  do {                                   \
    CUDA_CHECK(cudaGetLastError());      \
    CUDA_CHECK(cudaDeviceSynchronize()); \
  } while (0)
#else
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
#endif
