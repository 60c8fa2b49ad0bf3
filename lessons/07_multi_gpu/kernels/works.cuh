// The two works, each a partial result from a piece of one rank's share, computed by the best
// kernel of its own lesson: lesson 01's v7 histogram and lesson 03's v4 dot product.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <01_atomics_histogram/kernels/v6_v7_lane_copies.cuh>
#include <03_lock_dot_product/kernels/v4_near_bandwidth.cuh>

#include "../gpus.cuh"
#include "../reference.hpp"
#include "check.hpp"
#include "launch.hpp"
#include "spread.cuh"

namespace lesson07 {

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

}  // namespace lesson07
