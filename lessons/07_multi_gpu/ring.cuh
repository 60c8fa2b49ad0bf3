// Lesson 07, part (c): the hand-written ring all-reduce, in four steps towards NCCL's speed. Each
// step is one plan (ring_plans()), run by the same Ring:
//
//   ring       the textbook ring: every step's chunk is copied whole by the copy engine, then
//              added; the copy engine waits while the SMs add;
//   ring-pipe  each chunk in slices: the SMs add slice j while the copy engine brings slice j + 1,
//              and the next rank may pull slice j at once;
//   ring-2way  two rings at once, half the vector each, whole chunks again: one pulls from the
//              left neighbour, the other from the right, and each ring's adds run while the
//              other's copies do (a second ring overlaps better than slices: fewer, larger copies);
//   ring-sm    set against ring: no copy engine, a kernel reads the left neighbour's chunk over
//              NVLink and adds it in the same pass, with no receive buffer. NCCL moves its bytes
//              so too: under nsys its all-reduce is one kernel per GPU and no copy.
//
// The ring, for G ranks: the vector is cut into G chunks (share_of). In 2 (G - 1) steps, every
// rank pulls one chunk from its left neighbour:
//   reduce-scatter, steps k = 0 .. G-2: rank r pulls chunk (r - 1 - k) mod G and adds it into its
//     own; after G - 1 steps rank r holds the full sum of chunk (r + 1) mod G;
//   all-gather, steps k = 0 .. G-2: rank r pulls chunk (r - k) mod G, now final, straight into
//     its vector.
// Each rank sends and receives 2 (G - 1) chunks of n / G floats: 2 (G - 1) / G of the vector,
// whatever G, which is why NCCL's bus bandwidth multiplies by that factor. A slice of a step
// starts once both neighbours have finished that slice of the step before: the left one has then
// written what it pulls, and the right one has read what it is about to overwrite. Events say so,
// not the host.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "allreduce.cuh"
#include "device_memory.hpp"
#include "gpus.cuh"
#include "reference.hpp"

namespace lesson07 {

// How one ring moves its bytes.
struct RingPlan {
  const char* name;
  const char* idea;
  int directions;  // 1: every rank pulls from its left; 2: half the vector each way round
  int slices;      // the most slices a step's chunk is cut into (1: whole chunks)
  bool sm;         // the SMs pull (a kernel over NVLink) instead of the copy engines
};

inline const std::vector<RingPlan>& ring_plans() {
  static const std::vector<RingPlan> plans = {
      {"ring", "peer copies in a ring, by hand", 1, 1, false},
      {"ring-pipe", "slices: add one while the next is copied", 1, 4, false},
      {"ring-2way", "two rings, opposite ways, half each", 2, 1, false},
      {"ring-sm", "SMs pull and add over NVLink, no copies", 1, 1, true}};
  return plans;
}

// A slice is never cut below this: a copy or a launch costs a few microseconds whatever its size.
constexpr std::size_t kMinSliceBytes = std::size_t{64} << 20;

// The slices of a chunk of `count` floats under a plan that allows `most`, none below `least`
// bytes.
inline int slices_for(std::size_t count, int most, std::size_t least = kMinSliceBytes) {
  const std::size_t by_size = count * sizeof(float) / std::max<std::size_t>(least, 1);
  return static_cast<int>(std::max<std::size_t>(1, std::min<std::size_t>(by_size, most)));
}

// Which chunk rank r works on at step `step` (0 .. 2 (G-1) - 1) of a ring of g ranks that pull from
// their left (direction 0) or their right (direction 1: the same ring with the ranks numbered the
// other way round, v = (g - r) mod g).
inline int ring_chunk(int r, int g, int step, int direction) {
  const int v = direction == 0 ? r : (g - r) % g;
  const bool gather = step >= g - 1;
  const int k = gather ? step - (g - 1) : step;
  return gather ? ((v - k) % g + g) % g : ((v - 1 - k) % g + 2 * g) % g;
}

// dst[i] = src[i] for i < count (src may be another GPU's memory), 16 bytes at a time where both
// are aligned alike.
__global__ void copy_from_kernel(float* dst, const float* src, std::size_t count) {
  const std::size_t first = course::first_index();
  const std::size_t stride = course::grid_stride();
  std::size_t done = 0;
  if ((reinterpret_cast<std::uintptr_t>(dst) % 16 == 0) &&
      (reinterpret_cast<std::uintptr_t>(src) % 16 == 0)) {
    const std::size_t quads = count / 4;
    for (std::size_t i = first; i < quads; i += stride)
      reinterpret_cast<float4*>(dst)[i] = reinterpret_cast<const float4*>(src)[i];
    done = quads * 4;
  }
  for (std::size_t i = done + first; i < count; i += stride)
    dst[i] = src[i];
}

inline void copy_from(float* dst, const float* src, std::size_t count, cudaStream_t stream) {
  if (count == 0) return;
  static const int grid = course::sm_count() * 4;
  copy_from_kernel<<<grid, 256, 0, stream>>>(dst, src, count);
  CUDA_CHECK_LAUNCH();
}

class Ring {
 public:
  // `least`: the smallest slice, in bytes (the tests cut small vectors into slices too).
  Ring(const Gpus& gpus, std::size_t n, const RingPlan& plan, std::size_t least = kMinSliceBytes)
      : plan_(plan), n_(n), ranks_(gpus.ranks()), devices_(gpus.devices()) {
    for (int d = 0; d < plan_.directions; ++d) {
      const Share part = share_of(n, plan_.directions, d);
      parts_.push_back(part);
      slices_.push_back(slices_for(share_of(part.size(), ranks_, 0).size(), plan_.slices, least));
    }
    const std::size_t events = static_cast<std::size_t>(plan_.directions) * steps() *
                               static_cast<std::size_t>(plan_.slices);
    gpus.each([&](int r) {
      Rank rank;
      for (int d = 0; d < plan_.directions; ++d) {
        if (!plan_.sm) rank.receive.emplace_back(share_of(parts_[d].size(), ranks_, 0).size());
        for (int k = 0; k < 2; ++k) {
          cudaStream_t s = nullptr;
          CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
          rank.streams.push_back(s);  // direction d: copies at 2d, adds at 2d + 1
        }
      }
      auto make = [](std::vector<cudaEvent_t>& list, std::size_t count) {
        for (std::size_t i = 0; i < count; ++i) {
          cudaEvent_t e = nullptr;
          CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
          list.push_back(e);
        }
      };
      make(rank.copied, events);
      make(rank.done, events);
      make(rank.edges, rank.streams.size() + 1);
      ranks_data_.push_back(std::move(rank));
      (void)r;
    });
  }
  ~Ring() {
    for (std::size_t r = 0; r < ranks_data_.size(); ++r) {
      OnDevice on(devices_[r]);
      Rank& rank = ranks_data_[r];
      for (cudaStream_t s : rank.streams) {
        cudaStreamSynchronize(s);
        cudaStreamDestroy(s);
      }
      for (auto* list : {&rank.copied, &rank.done, &rank.edges}) {
        for (cudaEvent_t e : *list)
          cudaEventDestroy(e);
      }
    }
  }
  Ring(const Ring&) = delete;
  Ring& operator=(const Ring&) = delete;

  // Why this plan cannot run on `gpus` ("" when it can): the SMs can read only a peer's memory.
  static std::string limit(const RingPlan& plan, const Gpus& gpus) {
    if (plan.sm && !gpus.all_peers()) return "a GPU cannot read another's memory (peer access)";
    return "";
  }
  const RingPlan& plan() const { return plan_; }
  // The slices each step's chunk is cut into, per direction (for the program's report).
  const std::vector<int>& slices() const { return slices_; }

  // Every rank's data[r] (n floats on its GPU) becomes the sum of all of them, after what `timer`
  // (a stream of rank 0's GPU) holds; `timer` then waits for the result.
  void all_reduce(Gpus& gpus, const std::vector<float*>& data, cudaStream_t timer) {
    gpus.fork(timer);
    gpus.each([&](int r) {  // the ring's streams start after the rank's stream
      Rank& rank = ranks_data_[static_cast<std::size_t>(r)];
      CUDA_CHECK(cudaEventRecord(rank.edges.back(), gpus.stream(r)));
      for (cudaStream_t s : rank.streams)
        CUDA_CHECK(cudaStreamWaitEvent(s, rank.edges.back(), 0));
    });
    for (int step = 0; step < steps(); ++step) {
      for (int d = 0; d < plan_.directions; ++d) {
        gpus.each([&](int r) { one_step(gpus, data, r, d, step); });
      }
    }
    gpus.each([&](int r) {  // the rank's stream waits for the ring's
      Rank& rank = ranks_data_[static_cast<std::size_t>(r)];
      for (std::size_t i = 0; i < rank.streams.size(); ++i) {
        CUDA_CHECK(cudaEventRecord(rank.edges[i], rank.streams[i]));
        CUDA_CHECK(cudaStreamWaitEvent(gpus.stream(r), rank.edges[i], 0));
      }
    });
    gpus.join(timer);
  }

 private:
  struct Rank {
    std::vector<course::DeviceBuffer<float>> receive;  // per direction, one chunk (copy engines)
    std::vector<cudaStream_t> streams;                 // per direction: copies, adds
    std::vector<cudaEvent_t> copied;  // per (direction, step, slice): the slice has arrived
    std::vector<cudaEvent_t> done;    // ... and is added (reduce-scatter) or in place (gather)
    std::vector<cudaEvent_t> edges;   // one per stream, and the start
  };

  int steps() const { return 2 * (ranks_ - 1); }
  std::size_t event(int d, int step, int slice) const {
    return (static_cast<std::size_t>(d) * steps() + static_cast<std::size_t>(step)) *
               static_cast<std::size_t>(plan_.slices) +
           static_cast<std::size_t>(slice);
  }

  // Rank r's part of one step in direction d, with r's device current.
  void one_step(Gpus& gpus, const std::vector<float*>& data, int r, int d, int step) {
    const int g = ranks_;
    const int left = d == 0 ? (r + g - 1) % g : (r + 1) % g;  // whom r pulls from
    const int right = d == 0 ? (r + 1) % g : (r + g - 1) % g;
    const bool gather = step >= g - 1;
    const Share chunk = share_of(parts_[d].size(), g, ring_chunk(r, g, step, d));
    Rank& rank = ranks_data_[static_cast<std::size_t>(r)];
    const cudaStream_t copies = rank.streams[2 * static_cast<std::size_t>(d)];
    const cudaStream_t adds = rank.streams[2 * static_cast<std::size_t>(d) + 1];
    for (int j = 0; j < slices_[d]; ++j) {
      const Share slice = share_of(chunk.size(), slices_[d], j);
      const std::size_t at = parts_[d].begin + chunk.begin + slice.begin;
      if (step > 0) {
        // The left neighbour has written what r pulls, the right one has read what r overwrites,
        // and r has added what its receive buffer held: chunks differ by one float at most, so a
        // slice may reach one float into the next slice of the step before (whose add, on the
        // in-order adds stream, ends after this slice's).
        CUDA_CHECK(cudaStreamWaitEvent(copies, done_of(left, d, step - 1, j), 0));
        CUDA_CHECK(cudaStreamWaitEvent(copies, done_of(right, d, step - 1, j), 0));
        const int next = std::min(j + 1, slices_[d] - 1);
        CUDA_CHECK(cudaStreamWaitEvent(copies, done_of(r, d, step - 1, next), 0));
      }
      float* mine = data[static_cast<std::size_t>(r)] + at;
      const float* theirs = data[static_cast<std::size_t>(left)] + at;
      cudaEvent_t done = rank.done[event(d, step, j)];
      if (plan_.sm) {
        // One kernel reads the neighbour's slice over NVLink: adds it, or (gather) copies it.
        if (gather) {
          copy_from(mine, theirs, slice.size(), copies);
        } else {
          add_into(mine, theirs, slice.size(), copies);
        }
        CUDA_CHECK(cudaEventRecord(done, copies));
        continue;
      }
      float* to = gather ? mine : rank.receive[static_cast<std::size_t>(d)].data() + slice.begin;
      if (slice.size() > 0) {
        CUDA_CHECK(cudaMemcpyPeerAsync(to, gpus.device(r), theirs, gpus.device(left),
                                       slice.size() * sizeof(float), copies));
      }
      if (gather) {
        CUDA_CHECK(cudaEventRecord(done, copies));
        continue;
      }
      // The add runs on the second stream, so the copy engine goes on with the next slice.
      cudaEvent_t copied = rank.copied[event(d, step, j)];
      CUDA_CHECK(cudaEventRecord(copied, copies));
      CUDA_CHECK(cudaStreamWaitEvent(adds, copied, 0));
      add_into(mine, to, slice.size(), adds);
      CUDA_CHECK(cudaEventRecord(done, adds));
    }
  }
  cudaEvent_t done_of(int r, int d, int step, int slice) const {
    return ranks_data_[static_cast<std::size_t>(r)].done[event(d, step, slice)];
  }

  RingPlan plan_;
  std::size_t n_;
  int ranks_;
  std::vector<int> devices_;
  std::vector<Share> parts_;  // per direction: its part of the vector
  std::vector<int> slices_;   // per direction
  std::vector<Rank> ranks_data_;
};

}  // namespace lesson07
