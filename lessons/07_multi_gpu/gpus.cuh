// The GPUs of a run, as ranks: rank r works on device devices[r], on streams of its own. Peer
// access is switched on wherever the hardware allows it, and fork/join order the ranks' work
// after, and before, what one stream (the timer's) does. Host code only.
//
//   lesson07::Gpus gpus({0, 1, 2, 3});          // four ranks on four GPUs
//   gpus.fork(timer);                           // the ranks start after what `timer` has
//   gpus.each([&](int r) { kernel<<<g, b, 0, gpus.stream(r)>>>(...); });  // r's device current
//   gpus.join(timer);                           // `timer` goes on once every rank is done
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "check.hpp"
#include "format.hpp"
#include "gpu_timing.cuh"

namespace lesson07 {

// Makes `device` the current device for a scope, and the previous one current again after.
class OnDevice {
 public:
  explicit OnDevice(int device) {
    CUDA_CHECK(cudaGetDevice(&previous_));
    CUDA_CHECK(cudaSetDevice(device));
  }
  ~OnDevice() { cudaSetDevice(previous_); }
  OnDevice(const OnDevice&) = delete;
  OnDevice& operator=(const OnDevice&) = delete;

 private:
  int previous_ = 0;
};

inline int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

class Gpus {
 public:
  // One rank per entry of `devices`. A device may be named more than once: its ranks then share
  // it, which runs every version but NCCL's on a machine with one GPU (the tests and exercises do).
  // With `peers` false, no rank counts as reaching another's memory directly, as on a machine
  // whose GPUs cannot (lesson07 --no-peer): peer access stays off, and v2 falls back to v1.
  explicit Gpus(std::vector<int> devices, bool peers = true)
      : devices_(std::move(devices)), peers_(peers) {
    const int count = device_count();
    if (devices_.empty()) throw std::invalid_argument("Gpus: no devices");
    for (int d : devices_) {
      if (d < 0 || d >= count) {
        throw std::invalid_argument(course::format("Gpus: no device %d (%d found)", d, count));
      }
    }
    const int ranks = static_cast<int>(devices_.size());
    streams_.resize(2 * devices_.size());
    done_.resize(2 * devices_.size());
    for (int r = 0; r < ranks; ++r) {
      OnDevice on(devices_[r]);
      for (int k = 0; k < 2; ++k) {
        // Non-blocking: the streams never wait for the legacy default stream by themselves, so
        // every order between them is one this file or a version asked for.
        CUDA_CHECK(cudaStreamCreateWithFlags(&streams_[2 * r + k], cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreateWithFlags(&done_[2 * r + k], cudaEventDisableTiming));
      }
    }
    {
      OnDevice on(devices_[0]);
      CUDA_CHECK(cudaEventCreateWithFlags(&start_, cudaEventDisableTiming));
    }
    enable_peer_access();
    for (int d : devices_) {
      const bool made = std::any_of(other_l2s_.begin(), other_l2s_.end(),
                                    [d](const auto& f) { return f.first == d; });
      if (d == devices_[0] || made) continue;
      OnDevice on(d);
      other_l2s_.emplace_back(d, std::make_unique<course::L2Flush>(course::l2_bytes()));
    }
  }
  ~Gpus() {
    for (std::size_t i = 0; i < streams_.size(); ++i) {
      OnDevice on(devices_[i / 2]);
      cudaStreamSynchronize(streams_[i]);
      cudaStreamDestroy(streams_[i]);
      cudaEventDestroy(done_[i]);
    }
    cudaEventDestroy(start_);
  }
  Gpus(const Gpus&) = delete;
  Gpus& operator=(const Gpus&) = delete;

  int ranks() const { return static_cast<int>(devices_.size()); }
  int device(int r) const { return devices_.at(static_cast<std::size_t>(r)); }
  const std::vector<int>& devices() const { return devices_; }
  // Rank r's stream, and a second one (v4 reduces on it while the first computes).
  cudaStream_t stream(int r) const { return streams_.at(2 * static_cast<std::size_t>(r)); }
  cudaStream_t side(int r) const { return streams_.at(2 * static_cast<std::size_t>(r) + 1); }

  // How many different GPUs the ranks use.
  int gpu_count() const {
    std::vector<int> sorted = devices_;
    std::sort(sorted.begin(), sorted.end());
    return static_cast<int>(std::unique(sorted.begin(), sorted.end()) - sorted.begin());
  }
  // Whether no device is named twice (NCCL does not support a GPU in a communicator twice).
  bool distinct() const { return gpu_count() == ranks(); }
  // Whether rank `reader`'s GPU can read rank `owner`'s memory directly, over NVLink or PCIe
  // (always, on the same GPU).
  bool peer(int reader, int owner) const {
    if (!peers_) return reader == owner;
    return device(reader) == device(owner) ||
           peer_[static_cast<std::size_t>(device(reader) * count_ + device(owner))];
  }
  bool all_peers() const {
    for (int a = 0; a < ranks(); ++a) {
      for (int b = 0; b < ranks(); ++b) {
        if (!peer(a, b)) return false;
      }
    }
    return true;
  }

  // Calls f(r) for every rank, with r's device current.
  template <typename F>
  void each(F&& f) const {
    for (int r = 0; r < ranks(); ++r) {
      OnDevice on(device(r));
      f(r);
    }
  }

  // Every rank's two streams wait for what `from` (a stream of rank 0's device) holds so far.
  void fork(cudaStream_t from) {
    {
      OnDevice on(device(0));
      CUDA_CHECK(cudaEventRecord(start_, from));
    }
    for (cudaStream_t s : streams_)
      CUDA_CHECK(cudaStreamWaitEvent(s, start_, 0));
  }
  // `into` (a stream of rank 0's device) waits for what every rank's streams hold so far.
  void join(cudaStream_t into) {
    for (std::size_t i = 0; i < streams_.size(); ++i) {
      OnDevice on(devices_[i / 2]);
      CUDA_CHECK(cudaEventRecord(done_[i], streams_[i]));
    }
    for (cudaEvent_t e : done_)
      CUDA_CHECK(cudaStreamWaitEvent(into, e, 0));
  }
  // Waits until every GPU of the ranks is idle. After set-up, before the ranks' streams run: a
  // copy from pageable memory (cudaMemcpy, DeviceBuffer::upload) may return before its data has
  // landed, and a memset on the default stream (DeviceBuffer::fill_bytes) is only enqueued there;
  // the ranks' non-blocking streams do not wait for either by themselves.
  void settle() const {
    each([](int) { CUDA_CHECK(cudaDeviceSynchronize()); });
  }
  // Empties the L2 of every GPU of the ranks but rank 0's (course::Lesson flushes that one before
  // each timed run), and waits: a share read in the run before must not be read from L2 in this
  // one. Call it before the run's clock starts (Lesson::poison).
  void flush_other_l2s() {
    for (const auto& [d, l2] : other_l2s_) {
      OnDevice on(d);
      l2->flush();
      CUDA_CHECK(cudaDeviceSynchronize());
    }
  }
  void synchronize() const {
    for (std::size_t i = 0; i < streams_.size(); ++i) {
      OnDevice on(devices_[i / 2]);
      CUDA_CHECK(cudaStreamSynchronize(streams_[i]));
    }
  }

  // The devices and which can reach which, for the program's report:
  //   rank 0: GPU 0, NVIDIA H200
  //   peer access (row reads column): ...
  std::string report() const {
    std::string out;
    for (int r = 0; r < ranks(); ++r) {
      cudaDeviceProp props{};
      CUDA_CHECK(cudaGetDeviceProperties(&props, device(r)));
      out += course::format("rank %d: GPU %d, %s, %.0f GiB\n", r, device(r), props.name,
                            static_cast<double>(props.totalGlobalMem) / (1 << 30));
    }
    out += "peer access (rank in the row reads the rank in the column):\n      ";
    for (int c = 0; c < ranks(); ++c)
      out += course::format(" %4d", c);
    out += "\n";
    for (int r = 0; r < ranks(); ++r) {
      out += course::format("  %4d", r);
      for (int c = 0; c < ranks(); ++c)
        out += course::format(" %4s", !peer(r, c) ? "no" : device(r) == device(c) ? "same" : "yes");
      out += "\n";
    }
    if (!peers_) out += "(--no-peer: no rank reads another's memory directly)\n";
    return out;
  }

 private:
  // Switches peer access on from every GPU to every other that the hardware lets it reach.
  void enable_peer_access() {
    count_ = device_count();
    peer_.assign(static_cast<std::size_t>(count_ * count_), false);
    if (!peers_) return;
    for (int a : devices_) {
      for (int b : devices_) {
        if (a == b || peer_[static_cast<std::size_t>(a * count_ + b)]) continue;
        int can = 0;
        CUDA_CHECK(cudaDeviceCanAccessPeer(&can, a, b));
        if (!can) continue;
        OnDevice on(a);
        const cudaError_t error = cudaDeviceEnablePeerAccess(b, 0);
        if (error == cudaErrorPeerAccessAlreadyEnabled) {
          cudaGetLastError();  // enabled by an earlier Gpus in this process: fine
        } else {
          CUDA_CHECK(error);
        }
        peer_[static_cast<std::size_t>(a * count_ + b)] = true;
      }
    }
  }

  std::vector<int> devices_;
  std::vector<cudaStream_t> streams_;  // 2 per rank
  std::vector<cudaEvent_t> done_;      // 1 per stream
  cudaEvent_t start_ = nullptr;
  // flush_other_l2s's flushes: one per GPU of the ranks but rank 0's.
  std::vector<std::pair<int, std::unique_ptr<course::L2Flush>>> other_l2s_;
  bool peers_ = true;
  int count_ = 0;
  std::vector<bool> peer_;
};

}  // namespace lesson07
