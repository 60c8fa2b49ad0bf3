// Lesson 07: one answer from several GPUs. The histogram (lesson 01) and the dot product (lesson
// 03) are cut into one share per rank; each rank computes a partial result on its share with the
// lesson's own best kernel; the versions differ in how the partials become one answer on rank 0's
// GPU. Read from v0 down; each version changes one idea.
//
//   v0  one GPU does it all: the baseline every speed-up is measured against;
//   v1  every GPU its share; the host copies the partials back, adds them, copies the sum up;
//   v2  no host: rank 0's GPU pulls the partials over peer-to-peer copies and adds them;
//   v3  NCCL: one ncclReduce of the partials, rank 0 the root;
//   v4  overlap: each share in chunks, the reduce of one chunk running beside the next chunk's
//       computation.
//
// Every version enqueues its work after what the timer's stream (of rank 0's GPU) holds, and
// leaves that stream waiting for the result, which it writes to `out` on rank 0's GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../01_atomics_histogram/kernels.cuh"
#include "../03_lock_dot_product/kernels.cuh"
#include "device_memory.hpp"
#include "gpus.cuh"
#include "kind.hpp"
#include "nccl.cuh"
#include "reference.hpp"

namespace lesson07 {

// ---- the input, spread over the ranks -----------------------------------------------------------

// An array of the host's, copied to the GPUs: the whole of it to rank 0's GPU (v0 reads it all),
// and to every rank its share. A rank on rank 0's GPU reads its share from the whole copy; the
// others hold their own.
template <typename T>
class Spread {
 public:
  Spread(const Gpus& gpus, const std::vector<T>& host)
      : at_(static_cast<std::size_t>(gpus.ranks())) {
    {
      OnDevice on(gpus.device(0));
      whole_ = course::DeviceBuffer<T>(host);
    }
    own_.resize(at_.size());
    for (int r = 0; r < gpus.ranks(); ++r) {
      const Share s = share_of(host.size(), gpus.ranks(), r);
      if (gpus.device(r) == gpus.device(0)) {
        at_[r] = whole_.data() + s.begin;
        continue;
      }
      OnDevice on(gpus.device(r));
      own_[r] = course::DeviceBuffer<T>(s.size());
      own_[r].upload(host.data() + s.begin, s.size());
      at_[r] = own_[r].data();
    }
  }
  const T* whole() const { return whole_.data(); }
  const T* share(int r) const { return at_.at(static_cast<std::size_t>(r)); }

 private:
  course::DeviceBuffer<T> whole_;
  std::vector<course::DeviceBuffer<T>> own_;
  std::vector<const T*> at_;
};

// ---- the two works: a partial result from a piece of one rank's share ---------------------------

// Lesson 01's histogram: a partial is 256 64-bit counts, from lesson 01's v7 (lane copies in shared
// memory, the next 16-byte load in flight) with the grid that fills that rank's GPU.
class Histogram {
 public:
  using Value = unsigned long long;
  static constexpr int kWidth = lesson01::kBins;

  Histogram(const Gpus& gpus, const std::vector<std::uint8_t>& bytes)
      : n_(bytes.size()), ranks_(gpus.ranks()), data_(gpus, bytes) {
    gpus.each([&](int) {
      grid_.push_back(course::occupancy_grid(lesson01::pipelined_kernel<kThreads>, kThreads));
    });
    gpus.settle();  // the uploads have landed
  }
  std::size_t n() const { return n_; }
  Share share(int r) const { return share_of(n_, ranks_, r); }

  // All n bytes on rank 0's GPU (current), into out.
  void whole(Value* out, cudaStream_t stream) const {
    lesson01::histogram_pipelined(data_.whole(), n_, out, {stream, grid_[0]});
  }
  // Bytes [offset, offset + count) of rank r's share, on r's GPU (current), into out.
  void part(int r, std::size_t offset, std::size_t count, Value* out, cudaStream_t stream) const {
    lesson01::histogram_pipelined(data_.share(r) + offset, count, out,
                                  {stream, grid_[static_cast<std::size_t>(r)]});
  }

 private:
  static constexpr int kThreads = lesson01::kPipelinedThreads;
  std::size_t n_;
  int ranks_;
  Spread<std::uint8_t> data_;
  std::vector<int> grid_;
};

// Lesson 03's dot product: a partial is one float, from lesson 03's v4 (16-byte loads, four in
// flight, the last block adding the blocks' sums in order), each rank with its own workspace.
class Dot {
 public:
  using Value = float;
  static constexpr int kWidth = 1;

  Dot(const Gpus& gpus, const lesson03::Inputs& in)
      : n_(in.a.size()), ranks_(gpus.ranks()), a_(gpus, in.a), b_(gpus, in.b) {
    gpus.each([&](int) {
      grid_.push_back(course::occupancy_grid(lesson03::near_bandwidth_kernel, lesson03::kBigBlock));
      workspaces_.push_back(std::make_unique<lesson03::Workspace>());
    });
    gpus.settle();  // the uploads have landed, and the workspaces' memsets are done
  }
  std::size_t n() const { return n_; }
  Share share(int r) const { return share_of(n_, ranks_, r); }
  // The threads and blocks of one rank's launch, for the error bound.
  std::size_t threads(int r) const { return blocks(r) * lesson03::kBigBlock; }
  std::size_t blocks(int r) const {
    return static_cast<std::size_t>(grid_.at(static_cast<std::size_t>(r)));
  }

  void whole(Value* out, cudaStream_t stream) const {
    run(0, a_.whole(), b_.whole(), n_, out, stream);
  }
  void part(int r, std::size_t offset, std::size_t count, Value* out, cudaStream_t stream) const {
    run(r, a_.share(r) + offset, b_.share(r) + offset, count, out, stream);
  }

 private:
  // Lesson 03's v4 needs n >= 1: an empty piece's sum is 0.
  void run(int r, const float* a, const float* b, std::size_t count, Value* out,
           cudaStream_t stream) const {
    if (count == 0) {
      CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(Value), stream));
      return;
    }
    lesson03::dot_near_bandwidth(a, b, count, out, *workspaces_[static_cast<std::size_t>(r)],
                                 {stream, grid_[static_cast<std::size_t>(r)]});
  }
  std::size_t n_;
  int ranks_;
  Spread<float> a_;
  Spread<float> b_;
  std::vector<int> grid_;
  std::vector<std::unique_ptr<lesson03::Workspace>> workspaces_;
};

// ---- the rank-order sum, on the GPU -------------------------------------------------------------

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

// ---- every version, in the table's order --------------------------------------------------------

struct VersionInfo {
  const char* name;
  const char* idea;
  bool nccl;  // needs NCCL and distinct GPUs
  course::Kind kind = course::Kind::course;
};

// This lesson's source is the course's own next step (lesson.json): the program it starts from is
// v0, one GPU with lesson 01's or 03's best kernel, so v0 is the source's row the others beat.
inline const std::vector<VersionInfo>& version_list() {
  static const std::vector<VersionInfo> list = {
      {"v0", "one GPU, the lesson's best kernel", false, course::Kind::source},
      {"v1", "each GPU its share; the host adds", false},
      {"v2", "peer copies to GPU 0, no host", false},
      {"v3", "NCCL: one ncclReduce", true},
      {"v4", "chunks: reduce one, compute next", true}};
  return list;
}

}  // namespace lesson07
