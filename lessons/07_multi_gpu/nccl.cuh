// NCCL for lesson 07: checked calls, and one communicator per rank over a run's GPUs. Built only
// when CMake found NCCL (COURSE_HAVE_NCCL=1; the lesson's CMakeLists.txt says how to get it).
#pragma once

#if COURSE_HAVE_NCCL
#include <nccl.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include "gpus.cuh"

namespace lesson07 {

// On a failed NCCL call: one line with the file, the line, the call and NCCL's own words for the
// error (ncclGetErrorString), then exit 1, as CUDA_CHECK does for the runtime.
[[noreturn]] inline void nccl_fail(ncclResult_t result, const char* call, const char* file,
                                   int line) {
  std::fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, call, ncclGetErrorString(result));
  std::fflush(stderr);
  std::exit(1);
}

#define NCCL_CHECK(call)                                                       \
  do {                                                                         \
    const ncclResult_t lesson07_nccl_result_ = (call);                         \
    if (lesson07_nccl_result_ != ncclSuccess) {                                \
      ::lesson07::nccl_fail(lesson07_nccl_result_, #call, __FILE__, __LINE__); \
    }                                                                          \
  } while (0)

// NCCL's name for the element type T.
template <typename T>
constexpr ncclDataType_t nccl_type() {
  if constexpr (std::is_same_v<T, float>)
    return ncclFloat32;
  else if constexpr (std::is_same_v<T, unsigned long long>)
    return ncclUint64;
  else
    static_assert(sizeof(T) == 0, "nccl_type: no NCCL type for T");
}

inline int nccl_version() {
  int version = 0;
  NCCL_CHECK(ncclGetVersion(&version));
  return version;
}

// One communicator per rank of `gpus`, made in one call (ncclCommInitAll: one process drives every
// GPU). NCCL needs the GPUs distinct.
class Communicators {
 public:
  explicit Communicators(const Gpus& gpus) : comms_(static_cast<std::size_t>(gpus.ranks())) {
    NCCL_CHECK(ncclCommInitAll(comms_.data(), gpus.ranks(), gpus.devices().data()));
  }
  ~Communicators() {
    for (ncclComm_t c : comms_)
      ncclCommDestroy(c);
  }
  Communicators(const Communicators&) = delete;
  Communicators& operator=(const Communicators&) = delete;
  ncclComm_t operator[](int r) const { return comms_.at(static_cast<std::size_t>(r)); }

 private:
  std::vector<ncclComm_t> comms_;
};

}  // namespace lesson07
#endif
