// Lesson 07, part (c): the all-reduce. Every rank holds n floats; afterwards every rank holds the
// element-wise sum of all of them. Here the bytes between GPUs are the whole cost, so this is
// where the links are measured. This file holds what the rings (ring.cuh) and ncclAllReduce share:
// the ranks' vectors, the add, NCCL's call and the link's own bandwidth.
#pragma once

#include <cstddef>
#include <vector>

#include "clock.cuh"
#include "device_memory.hpp"
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
  // The L2 stays warm: a peer copy's speed is the link's, far below either GPU's memory, and a
  // flush would empty only rank 0's GPU's L2, not rank 1's, which the copy reads.
  const course::Clock clock = course::Clock(reps).on(timer).keep_l2_warm();
  auto time = [&](bool both) {
    return clock
        .time([&] {
          gpus.fork(timer);
          CUDA_CHECK(cudaMemcpyPeerAsync(to[0].data(), gpus.device(0), from[1].data(),
                                         gpus.device(1), bytes, gpus.stream(0)));
          if (both) {
            CUDA_CHECK(cudaMemcpyPeerAsync(to[1].data(), gpus.device(1), from[0].data(),
                                           gpus.device(0), bytes, gpus.stream(1)));
          }
          gpus.join(timer);
        })
        .median_ms;
  };
  const double one = time(false);
  const double two = time(true);
  return {static_cast<double>(bytes) / (one * 1e6), 2.0 * static_cast<double>(bytes) / (two * 1e6)};
}

}  // namespace lesson07
