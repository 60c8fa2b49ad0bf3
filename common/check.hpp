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

// A CUDA version as cudaDriverGetVersion and cudaRuntimeGetVersion give it (13000), as people
// write it ("13.0").
inline std::string version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

// The CUDA version the NVIDIA driver supports, 0 when no driver is loaded (cudaDriverGetVersion
// says so, and fails only on a null pointer); and the version of the runtime this program uses.
inline int driver_version() {
  int version = 0;
  if (cudaDriverGetVersion(&version) != cudaSuccess) version = 0;
  return version;
}
inline int runtime_version() {
  int version = 0;
  if (cudaRuntimeGetVersion(&version) != cudaSuccess) version = 0;
  return version;
}

// Why no GPU can be used, in a few words, for `error` from the first CUDA call: the runtime
// reports cudaErrorInsufficientDriver both where the driver is older than the runtime and where
// there is no driver at all, which `driver` (driver_version(): 0, none) tells apart; `runtime` is
// runtime_version().
inline std::string no_gpu_reason(cudaError_t error, int driver, int runtime) {
  if (error == cudaErrorInsufficientDriver && driver == 0) return "no NVIDIA driver is loaded";
  if (error == cudaErrorInsufficientDriver) {
    return "the NVIDIA driver (CUDA " + version_text(driver) +
           ") is older than this CUDA toolkit (" + version_text(runtime) + "): update the driver";
  }
  if (error == cudaErrorNoDevice) return "no CUDA GPU is visible (check nvidia-smi)";
  return cudaGetErrorString(error);
}

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
  } else if (error == cudaErrorInsufficientDriver || error == cudaErrorNoDevice) {
    message += "; hint: " + no_gpu_reason(error, driver_version(), runtime_version());
  }
  return message;
}

[[noreturn]] inline void cuda_fail(cudaError_t error, const char* call, const char* file,
                                   int line) {
  std::fprintf(stderr, "%s\n", cuda_error_message(error, call, file, line).c_str());
  std::fflush(stderr);
  std::exit(1);
}

// Whether a CUDA device can be used; if not, why (no_gpu_reason) and CUDA's name for the error.
struct GpuProbe {
  bool usable = false;
  std::string reason;  // "no NVIDIA driver is loaded"
  std::string error;   // "cudaErrorInsufficientDriver"
};

// Creating the context here (cudaFree(0)) also catches a driver that is too old, or a GPU that
// is busy in exclusive mode.
inline GpuProbe probe_gpu_reason() {
  int count = 0;
  cudaError_t error = cudaGetDeviceCount(&count);
  if (error == cudaSuccess && count == 0) error = cudaErrorNoDevice;
  if (error == cudaSuccess) error = cudaFree(nullptr);
  if (error == cudaSuccess) return {true, "", ""};
  cudaGetLastError();  // clear the error, so the next checked call does not report it again
  return {false, no_gpu_reason(error, driver_version(), runtime_version()),
          cudaGetErrorName(error)};
}

// Whether a CUDA device can be used; if not, `why_not` says why in a few words, CUDA's name for
// the error last: "no NVIDIA driver is loaded: cudaErrorInsufficientDriver".
inline bool probe_gpu(std::string* why_not = nullptr) {
  const GpuProbe probe = probe_gpu_reason();
  if (!probe.usable && why_not) *why_not = probe.reason + ": " + probe.error;
  return probe.usable;
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
