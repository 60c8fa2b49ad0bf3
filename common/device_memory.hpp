// Owners for device memory and CUDA events: whatever path leaves a scope, nothing leaks.
//
//   course::DeviceBuffer<float> d_x(n);   // cudaMalloc; cudaFree when d_x goes out of scope
//   d_x.upload(host_vector);
//   kernel<<<g, b>>>(d_x.data(), d_x.size());
//   std::vector<float> back = d_x.download();
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "check.hpp"

namespace course {

// Where a DeviceBuffer's memory lives: on the GPU (cudaMalloc), or managed (cudaMallocManaged),
// which the CPU and the GPU share and which moves on demand to whichever touches it (what lesson
// 06's source declares as __managed__ arrays).
enum class Memory { device, managed };

// An owning, move-only array in device memory. It is not initialised: call fill_bytes() or
// upload() before reading it.
template <typename T>
class DeviceBuffer {
 public:
  using value_type = T;

  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count, Memory where = Memory::device) : count_(count) {
    if (count_ == 0) return;
    if (where == Memory::managed) {
      CUDA_CHECK(cudaMallocManaged(reinterpret_cast<void**>(&data_), bytes()));
    } else {
      CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), bytes()));
    }
  }
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
  ~DeviceBuffer() { release(); }

  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  void upload(const T* host, std::size_t count, std::size_t offset = 0) {
    if (count > 0) {
      CUDA_CHECK(cudaMemcpy(data_ + offset, host, count * sizeof(T), cudaMemcpyHostToDevice));
    }
  }
  void upload(const std::vector<T>& host) { upload(host.data(), host.size()); }

  std::vector<T> download() const {
    std::vector<T> host(count_);
    if (count_ > 0) {
      CUDA_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
    }
    return host;
  }

  // Sets every byte, for zeroing or for poisoning an output before a kernel writes it.
  void fill_bytes(unsigned char value, cudaStream_t stream = nullptr) {
    if (count_ > 0) CUDA_CHECK(cudaMemsetAsync(data_, value, bytes(), stream));
  }

 private:
  void release() {
    // A destructor cannot report an error usefully, and cudaFree only fails here when an earlier
    // error already broke the context, which a checked call has reported.
    if (data_ != nullptr) cudaFree(data_);
    data_ = nullptr;
    count_ = 0;
  }

  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// An owning, move-only array in page-locked ("pinned") host memory (cudaMallocHost): the GPU's copy
// engines read and write it directly, so cudaMemcpyAsync to or from it is truly asynchronous (from
// pageable memory the runtime stages the copy and the host waits).
template <typename T>
class PinnedBuffer {
 public:
  explicit PinnedBuffer(std::size_t count) : count_(count) {
    if (count_ > 0)
      CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&data_), count_ * sizeof(T)));
  }
  ~PinnedBuffer() {
    if (data_ != nullptr) cudaFreeHost(data_);
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer(PinnedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&&) = delete;

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// An owned CUDA event, for timing.
class CudaEvent {
 public:
  CudaEvent() { CUDA_CHECK(cudaEventCreate(&event_)); }
  ~CudaEvent() {
    if (event_ != nullptr) cudaEventDestroy(event_);
  }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  CudaEvent(CudaEvent&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  CudaEvent& operator=(CudaEvent&&) = delete;

  cudaEvent_t get() const { return event_; }
  void record(cudaStream_t stream = nullptr) { CUDA_CHECK(cudaEventRecord(event_, stream)); }

  // Milliseconds from `start` to this event; waits for this event to complete.
  float elapsed_ms_since(const CudaEvent& start) const {
    CUDA_CHECK(cudaEventSynchronize(event_));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, event_));
    return ms;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace course
