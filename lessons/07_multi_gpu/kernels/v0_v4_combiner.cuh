// v0 to v4: the ways the ranks' partial results become one answer on rank 0's GPU, as the methods
// of one Combiner that holds the buffers they need; and the rank-order sum they finish with.
#pragma once

#include <cstddef>
#include <vector>

#include "../gpus.cuh"
#include "../nccl.cuh"
#include "../reference.hpp"
#include "check.hpp"
#include "device_memory.hpp"

namespace lesson07 {

// out[i] = partials[i] + partials[width + i] + ... in that order (reference.hpp's
// combine_in_rank_order, which the CPU checks it against): the same bits on every run.
template <typename T>
__global__ void add_in_rank_order_kernel(const T* partials, int ranks, int width, T* out) {
  for (int i = static_cast<int>(threadIdx.x); i < width; i += static_cast<int>(blockDim.x)) {
    T sum = partials[i];
    for (int r = 1; r < ranks; ++r)
      sum += partials[static_cast<std::size_t>(r) * width + i];
    out[i] = sum;
  }
}

template <typename T>
void add_in_rank_order(const T* partials, int ranks, int width, T* out, cudaStream_t stream) {
  add_in_rank_order_kernel<<<1, 256, 0, stream>>>(partials, ranks, width, out);
  CUDA_CHECK_LAUNCH();
}

// ---- the versions -------------------------------------------------------------------------------

#if COURSE_HAVE_NCCL
using CommunicatorsPtr = const Communicators*;
#else
using CommunicatorsPtr = const void*;
#endif

// The versions of one work on one set of ranks, with the buffers they need, allocated once.
template <typename Work>
class Combiner {
 public:
  using Value = typename Work::Value;
  static constexpr int kWidth = Work::kWidth;
  static constexpr std::size_t kBytes = kWidth * sizeof(Value);

  // `comms` may be null (no NCCL, or ranks sharing a GPU): v3 and v4 cannot run then.
  Combiner(Gpus& gpus, const Work& work, int chunks, CommunicatorsPtr comms)
      : gpus_(gpus),
        work_(work),
        chunks_(chunks),
        comms_(comms),
        host_(kWidth * gpus.ranks()),
        host_sum_(kWidth) {
    gpus.each([&](int r) {
      partials_.emplace_back(static_cast<std::size_t>(kWidth));
      chunk_partials_.emplace_back(static_cast<std::size_t>(kWidth * chunks));
      cudaEvent_t e = nullptr;
      CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
      ready_.push_back(e);
      (void)r;
    });
    OnDevice on(gpus.device(0));
    gathered_ = course::DeviceBuffer<Value>(static_cast<std::size_t>(kWidth * gpus.ranks()));
    slots_ = course::DeviceBuffer<Value>(static_cast<std::size_t>(kWidth * chunks));
  }
  ~Combiner() {
    for (std::size_t r = 0; r < ready_.size(); ++r) {
      OnDevice on(gpus_.device(static_cast<int>(r)));
      cudaEventDestroy(ready_[r]);
    }
  }
  Combiner(const Combiner&) = delete;
  Combiner& operator=(const Combiner&) = delete;

  int chunks() const { return chunks_; }
  // Whether v3 and v4 can run: NCCL was built in and the ranks' GPUs are distinct.
  bool has_nccl() const { return comms_ != nullptr; }

  // v0 one GPU, the lesson's own best kernel over the whole input.
  void one_gpu(Value* out, cudaStream_t timer) {
    OnDevice on(gpus_.device(0));
    work_.whole(out, timer);
  }

  // v1 every rank its share; each partial comes back to the host (into pinned memory, on the
  // rank's own stream), the host waits for them all, adds them in rank order and copies the sum
  // to rank 0's GPU.
  void host_staged(Value* out, cudaStream_t timer) {
    gpus_.fork(timer);
    gpus_.each([&](int r) {
      work_.part(r, 0, work_.share(r).size(), partial(r), gpus_.stream(r));
      CUDA_CHECK(cudaMemcpyAsync(host_.data() + r * kWidth, partial(r), kBytes,
                                 cudaMemcpyDeviceToHost, gpus_.stream(r)));
    });
    gpus_.synchronize();  // the host waits for every GPU: the round trip v2 removes
    add_in_rank_order(host_.data(), gpus_.ranks(), kWidth, host_sum_.data());
    OnDevice on(gpus_.device(0));
    CUDA_CHECK(
        cudaMemcpyAsync(out, host_sum_.data(), kBytes, cudaMemcpyHostToDevice, gpus_.stream(0)));
    gpus_.join(timer);
  }

  // v2 peer-to-peer: rank 0's GPU waits (on an event, not the host) for each rank's partial, pulls
  // it with cudaMemcpyPeerAsync into a row of `gathered`, and adds the rows in rank order. Where a
  // GPU cannot reach another, it falls back to v1 (the table says so).
  void peer_pull(Value* out, cudaStream_t timer) {
    if (!gpus_.all_peers()) {
      host_staged(out, timer);
      return;
    }
    gpus_.fork(timer);
    gpus_.each([&](int r) {
      Value* to = r == 0 ? gathered_.data() : partial(r);
      work_.part(r, 0, work_.share(r).size(), to, gpus_.stream(r));
      CUDA_CHECK(cudaEventRecord(ready_[static_cast<std::size_t>(r)], gpus_.stream(r)));
    });
    OnDevice on(gpus_.device(0));
    const cudaStream_t root = gpus_.stream(0);
    for (int r = 1; r < gpus_.ranks(); ++r) {
      CUDA_CHECK(cudaStreamWaitEvent(root, ready_[static_cast<std::size_t>(r)], 0));
      CUDA_CHECK(cudaMemcpyPeerAsync(gathered_.data() + r * kWidth, gpus_.device(0), partial(r),
                                     gpus_.device(r), kBytes, root));
    }
    add_in_rank_order(gathered_.data(), gpus_.ranks(), kWidth, out, root);
    gpus_.join(timer);
  }

#if COURSE_HAVE_NCCL
  // v3 NCCL: every rank computes its partial, then one ncclReduce (sum, root rank 0) in a group,
  // each rank's call on its own stream. NCCL picks the route (NVLink, PCIe, the network).
  void nccl_reduce(Value* out, cudaStream_t timer) {
    gpus_.fork(timer);
    gpus_.each(
        [&](int r) { work_.part(r, 0, work_.share(r).size(), partial(r), gpus_.stream(r)); });
    NCCL_CHECK(ncclGroupStart());
    for (int r = 0; r < gpus_.ranks(); ++r) {
      NCCL_CHECK(ncclReduce(partial(r), r == 0 ? out : partial(r), kWidth, nccl_type<Value>(),
                            ncclSum, 0, (*comms_)[r], gpus_.stream(r)));
    }
    NCCL_CHECK(ncclGroupEnd());
    gpus_.join(timer);
  }

  // v4 overlap: each share in `chunks` pieces. A piece's partial is computed on the rank's stream;
  // its reduce (to slot c of rank 0's `slots`) waits for it on the rank's second stream, so the
  // next piece is computed while this one is reduced. Rank 0 then adds the slots in order.
  void overlapped(Value* out, cudaStream_t timer) {
    gpus_.fork(timer);
    for (int c = 0; c < chunks_; ++c) {
      gpus_.each([&](int r) {
        const Share piece = share_of(work_.share(r).size(), chunks_, c);
        work_.part(r, piece.begin, piece.size(), chunk_partial(r, c), gpus_.stream(r));
        CUDA_CHECK(cudaEventRecord(ready_[static_cast<std::size_t>(r)], gpus_.stream(r)));
        CUDA_CHECK(cudaStreamWaitEvent(gpus_.side(r), ready_[static_cast<std::size_t>(r)], 0));
      });
      NCCL_CHECK(ncclGroupStart());
      for (int r = 0; r < gpus_.ranks(); ++r) {
        Value* to = r == 0 ? slots_.data() + c * kWidth : chunk_partial(r, c);
        NCCL_CHECK(ncclReduce(chunk_partial(r, c), to, kWidth, nccl_type<Value>(), ncclSum, 0,
                              (*comms_)[r], gpus_.side(r)));
      }
      NCCL_CHECK(ncclGroupEnd());
    }
    OnDevice on(gpus_.device(0));
    add_in_rank_order(slots_.data(), chunks_, kWidth, out, gpus_.side(0));
    gpus_.join(timer);
  }
#endif

 private:
  Value* partial(int r) {
    return partials_[static_cast<std::size_t>(r)].data();
  }
  Value* chunk_partial(int r, int c) {
    return chunk_partials_[static_cast<std::size_t>(r)].data() + c * kWidth;
  }

  Gpus& gpus_;
  const Work& work_;
  int chunks_;
  CommunicatorsPtr comms_;
  course::PinnedBuffer<Value> host_;
  course::PinnedBuffer<Value> host_sum_;
  std::vector<course::DeviceBuffer<Value>> partials_;        // one per rank, on its GPU
  std::vector<course::DeviceBuffer<Value>> chunk_partials_;  // v4's: `chunks` per rank
  std::vector<cudaEvent_t> ready_;                           // one per rank, on its GPU
  course::DeviceBuffer<Value> gathered_;                     // v2's rows, on rank 0's GPU
  course::DeviceBuffer<Value> slots_;                        // v4's, on rank 0's GPU
};

}  // namespace lesson07
