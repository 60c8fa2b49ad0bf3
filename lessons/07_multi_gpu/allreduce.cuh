// Lesson 07, part (c): the all-reduce. Every rank holds n floats; afterwards every rank holds the
// element-wise sum of all of them. Here the bytes between GPUs are the whole cost, so this is
// where the links are measured: a ring written by hand with peer copies, against ncclAllReduce.
#pragma once

#include <cstddef>
#include <vector>

#include "device_memory.hpp"
#include "gpu_timing.cuh"
#include "gpus.cuh"
#include "launch.hpp"
#include "nccl.cuh"
#include "reference.hpp"

namespace lesson07 {

// dst[i] += src[i] for i < count, 16 bytes at a time where both are aligned alike.
__global__ void add_into_kernel(float* dst, const float* src, std::size_t count) {
  const std::size_t first = course::first_index();
  const std::size_t stride = course::grid_stride();
  const bool vectors = (reinterpret_cast<std::uintptr_t>(dst) % 16 == 0) &&
                       (reinterpret_cast<std::uintptr_t>(src) % 16 == 0);
  std::size_t done = 0;
  if (vectors) {
    const std::size_t quads = count / 4;
    auto* d4 = reinterpret_cast<float4*>(dst);
    const auto* s4 = reinterpret_cast<const float4*>(src);
    for (std::size_t i = first; i < quads; i += stride) {
      float4 d = d4[i];
      const float4 s = s4[i];
      d.x += s.x;
      d.y += s.y;
      d.z += s.z;
      d.w += s.w;
      d4[i] = d;
    }
    done = quads * 4;
  }
  for (std::size_t i = done + first; i < count; i += stride)
    dst[i] += src[i];
}

inline void add_into(float* dst, const float* src, std::size_t count, cudaStream_t stream) {
  if (count == 0) return;
  static const int grid = course::sm_count() * 4;
  add_into_kernel<<<grid, 256, 0, stream>>>(dst, src, count);
  CUDA_CHECK_LAUNCH();
}

// Each rank's vector (n floats, on its GPU) and a pristine copy that every timed run starts from.
class Vectors {
 public:
  Vectors(const Gpus& gpus, std::size_t n, std::uint64_t seed) : n_(n) {
    gpus.each([&](int r) {
      std::vector<float> host(n);
      course::parallel_for(n, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
          host[i] = allreduce_element(seed, r, i);
      });
      pristine_.emplace_back(host);
      data_.emplace_back(n);
    });
    gpus.settle();  // the uploads have landed
  }
  std::size_t n() const { return n_; }
  float* data(int r) { return data_[static_cast<std::size_t>(r)].data(); }
  std::vector<float*> pointers() {
    std::vector<float*> out;
    for (auto& d : data_)
      out.push_back(d.data());
    return out;
  }
  // Every rank's vector back to its input, on the rank's stream.
  void restore(const Gpus& gpus) {
    gpus.each([&](int r) {
      CUDA_CHECK(cudaMemcpyAsync(data(r), pristine_[static_cast<std::size_t>(r)].data(),
                                 n_ * sizeof(float), cudaMemcpyDeviceToDevice, gpus.stream(r)));
    });
  }
  // "" when every rank holds `expected`, bit for bit; else the first rank and place that does not.
  std::string mismatch(const Gpus& gpus, const std::vector<float>& expected) {
    for (int r = 0; r < gpus.ranks(); ++r) {
      OnDevice on(gpus.device(r));
      const std::vector<float> got = data_[static_cast<std::size_t>(r)].download();
      for (std::size_t i = 0; i < n_; ++i) {
        if (course::bits_of(got[i]) != course::bits_of(expected[i])) {
          return course::format("rank %d, element %zu: got %g, expected %g", r, i, got[i],
                                expected[i]);
        }
      }
    }
    return "";
  }

 private:
  std::size_t n_;
  std::vector<course::DeviceBuffer<float>> pristine_;
  std::vector<course::DeviceBuffer<float>> data_;
};

// The hand-written ring: the vector is cut into G chunks (share_of). In 2 (G - 1) steps, every
// rank pulls one chunk from its left neighbour (rank r - 1) with cudaMemcpyPeerAsync, on its own
// stream:
//   reduce-scatter, steps k = 0 .. G-2: rank r pulls chunk (r - 1 - k) mod G into its receive
//     buffer and adds it into its own; after G - 1 steps rank r holds the full sum of chunk
//     (r + 1) mod G;
//   all-gather, steps k = 0 .. G-2: rank r pulls chunk (r - k) mod G, now final, straight into
//     its vector.
// Each rank sends and receives 2 (G - 1) chunks of n / G floats: 2 (G - 1) / G of the vector,
// whatever G, which is why NCCL's bus bandwidth multiplies by that factor. No rank starts a step
// before both neighbours have finished the one before: the left one has then written what it
// pulls, and the right one has read what it is about to overwrite. Events say so, not the host.
class Ring {
 public:
  Ring(const Gpus& gpus, std::size_t n) : n_(n), ranks_(gpus.ranks()) {
    const std::size_t steps = 2 * static_cast<std::size_t>(ranks_ - 1);
    gpus.each([&](int) {
      receive_.emplace_back(share_of(n, ranks_, 0).size());
      for (std::size_t s = 0; s < steps; ++s) {
        cudaEvent_t e = nullptr;
        CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
        done_.push_back(e);
      }
    });
    devices_ = gpus.devices();
  }
  ~Ring() {
    const std::size_t steps = 2 * static_cast<std::size_t>(ranks_ - 1);
    for (std::size_t i = 0; i < done_.size(); ++i) {
      OnDevice on(devices_[steps == 0 ? 0 : i / steps]);
      cudaEventDestroy(done_[i]);
    }
  }
  Ring(const Ring&) = delete;
  Ring& operator=(const Ring&) = delete;

  void all_reduce(Gpus& gpus, const std::vector<float*>& data, cudaStream_t timer) {
    gpus.fork(timer);
    const int g = ranks_;
    for (int step = 0; step < 2 * (g - 1); ++step) {
      const bool gather = step >= g - 1;
      const int k = gather ? step - (g - 1) : step;
      gpus.each([&](int r) {
        const int left = (r + g - 1) % g;
        const int right = (r + 1) % g;
        const cudaStream_t s = gpus.stream(r);
        if (step > 0) {
          CUDA_CHECK(cudaStreamWaitEvent(s, done(left, step - 1), 0));
          CUDA_CHECK(cudaStreamWaitEvent(s, done(right, step - 1), 0));
        }
        const int c = gather ? ((r - k) % g + g) % g : ((r - 1 - k) % g + 2 * g) % g;
        const Share chunk = share_of(n_, g, c);
        const std::size_t bytes = chunk.size() * sizeof(float);
        float* mine = data[static_cast<std::size_t>(r)] + chunk.begin;
        const float* theirs = data[static_cast<std::size_t>(left)] + chunk.begin;
        if (bytes > 0) {
          float* to = gather ? mine : receive_[static_cast<std::size_t>(r)].data();
          CUDA_CHECK(cudaMemcpyPeerAsync(to, gpus.device(r), theirs, gpus.device(left), bytes, s));
          if (!gather) add_into(mine, to, chunk.size(), s);
        }
        CUDA_CHECK(cudaEventRecord(done(r, step), s));
      });
    }
    gpus.join(timer);
  }

 private:
  cudaEvent_t done(int rank, int step) const {
    return done_[static_cast<std::size_t>(rank) * 2 * static_cast<std::size_t>(ranks_ - 1) +
                 static_cast<std::size_t>(step)];
  }
  std::size_t n_;
  int ranks_;
  std::vector<int> devices_;
  std::vector<course::DeviceBuffer<float>> receive_;  // one chunk per rank
  std::vector<cudaEvent_t> done_;                     // per rank, per step
};

#if COURSE_HAVE_NCCL
// NCCL's all-reduce, in place, every rank's call on its own stream, in one group.
inline void nccl_all_reduce(Gpus& gpus, const Communicators& comms, const std::vector<float*>& data,
                            std::size_t n, cudaStream_t timer) {
  gpus.fork(timer);
  NCCL_CHECK(ncclGroupStart());
  for (int r = 0; r < gpus.ranks(); ++r) {
    float* v = data[static_cast<std::size_t>(r)];
    NCCL_CHECK(ncclAllReduce(v, v, n, ncclFloat32, ncclSum, comms[r], gpus.stream(r)));
  }
  NCCL_CHECK(ncclGroupEnd());
  gpus.join(timer);
}
#endif

// The bandwidth of the link between ranks 0 and 1: one peer copy of `bytes` from rank 1's GPU to
// rank 0's, and two at once, one each way (GB/s; the median of `reps`). What one link gives a ring.
struct LinkBandwidth {
  double one_way = 0;
  double both_ways = 0;  // the two copies' bytes over their common time
};

inline LinkBandwidth measure_link(Gpus& gpus, std::size_t bytes, int reps) {
  std::vector<course::DeviceBuffer<unsigned char>> from, to;
  for (int r : {0, 1}) {
    OnDevice on(gpus.device(r));
    from.emplace_back(bytes);
    to.emplace_back(bytes);
    from.back().fill_bytes(0x5A);
  }
  gpus.settle();
  OnDevice on(gpus.device(0));
  const cudaStream_t timer = nullptr;  // rank 0's GPU's default stream
  auto time = [&](bool both) {
    return course::time_gpu(
               [&] {
                 gpus.fork(timer);
                 CUDA_CHECK(cudaMemcpyPeerAsync(to[0].data(), gpus.device(0), from[1].data(),
                                                gpus.device(1), bytes, gpus.stream(0)));
                 if (both) {
                   CUDA_CHECK(cudaMemcpyPeerAsync(to[1].data(), gpus.device(1), from[0].data(),
                                                  gpus.device(0), bytes, gpus.stream(1)));
                 }
                 gpus.join(timer);
               },
               reps)
        .median_ms;
  };
  const double one = time(false);
  const double two = time(true);
  return {static_cast<double>(bytes) / (one * 1e6), 2.0 * static_cast<double>(bytes) / (two * 1e6)};
}

}  // namespace lesson07
