// What the tests of lesson 07's exercises share: a set of ranks with their streams, spread over
// the machine's GPUs (rank r on GPU r mod G): on distinct GPUs where there are enough, so that an
// answer that ignores which GPU a rank is on fails there; all on GPU 0 on a machine with one (the
// exercises run there too, and grade.py says that the placement was not checked).
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "check.hpp"

namespace grading07 {

class TestRanks {
 public:
  explicit TestRanks(int count) {
    int gpus = 0;
    CUDA_CHECK(cudaGetDeviceCount(&gpus));
    for (int r = 0; r < count; ++r) {
      devices.push_back(r % gpus);
      CUDA_CHECK(cudaSetDevice(devices.back()));
      cudaStream_t s = nullptr;
      CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      streams.push_back(s);
    }
    CUDA_CHECK(cudaSetDevice(devices[0]));
  }
  ~TestRanks() {
    for (std::size_t r = 0; r < streams.size(); ++r) {
      cudaSetDevice(devices[r]);
      cudaStreamSynchronize(streams[r]);
      cudaStreamDestroy(streams[r]);
    }
    cudaSetDevice(devices[0]);
  }
  TestRanks(const TestRanks&) = delete;
  TestRanks& operator=(const TestRanks&) = delete;

  // Waits for every GPU the ranks use.
  void synchronize() const {
    for (int d : devices) {
      CUDA_CHECK(cudaSetDevice(d));
      CUDA_CHECK(cudaDeviceSynchronize());
    }
    CUDA_CHECK(cudaSetDevice(devices[0]));
  }
  int count() const { return static_cast<int>(devices.size()); }

  std::vector<int> devices;
  std::vector<cudaStream_t> streams;
};

}  // namespace grading07
