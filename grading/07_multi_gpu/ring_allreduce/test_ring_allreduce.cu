// Grades exercise 2 of lesson 07: ring_allreduce (ring_allreduce.cuh). Every rank must end with the
// exact sum (small whole numbers, so any order of addition is exact), at awkward sizes drawn from
// the seed, with 2 to 4 ranks (spread over the GPUs: distinct ones where there are enough, so that
// an answer that waits on one GPU only fails there), twice over. The record of ring_copy
// grades the technique: every copy goes from a rank to its right neighbour, none is larger than a
// chunk, and each rank receives 2 (G - 1) chunks in all: an answer that gathers everything on one
// rank, or passes whole vectors, scores zero.
#include <cstdint>
#include <vector>

#include "device_memory.hpp"
#include "inputs.hpp"
#include "ranks_testing.hpp"
#include "ring_allreduce_harness.hpp"
#include "testing.hpp"

namespace {

// Rank r's element i: a whole number in [-8, 8].
float element(std::uint64_t seed, int r, std::size_t i) {
  return static_cast<float>(static_cast<int>(course::random_u64(seed + 31u * r, i) % 17) - 8);
}

// "" when the copies are a ring's; else the first thing wrong with them.
std::string ring_problem(const std::vector<grading07::Copy>& copies, int g, std::size_t n) {
  const std::size_t chunk = (n + g - 1) / g;
  std::vector<std::size_t> received(static_cast<std::size_t>(g), 0);
  std::vector<int> count(static_cast<std::size_t>(g), 0);
  for (const grading07::Copy& c : copies) {
    std::ostringstream what;
    what << "a copy of " << c.count << " floats from rank " << c.from << " to rank " << c.to;
    if (c.from < 0 || c.from >= g || c.to != (c.from + 1) % g) {
      return "copies go only to the right neighbour: not " + what.str();
    }
    if (c.count > chunk)
      return what.str() + ": larger than a chunk (" + std::to_string(chunk) + ")";
    received[static_cast<std::size_t>(c.to)] += c.count;
    ++count[static_cast<std::size_t>(c.to)];
  }
  for (int r = 0; r < g; ++r) {
    // 2 (G - 1) copies (fewer only where chunks are empty, n < G), at most 2 (G - 1) chunks.
    if (count[static_cast<std::size_t>(r)] > 2 * (g - 1) ||
        (n >= static_cast<std::size_t>(g) && count[static_cast<std::size_t>(r)] != 2 * (g - 1))) {
      return "rank " + std::to_string(r) + " received " + std::to_string(count[r]) +
             " copies, not 2 (G - 1) = " + std::to_string(2 * (g - 1));
    }
    if (received[static_cast<std::size_t>(r)] > 2 * static_cast<std::size_t>(g - 1) * chunk) {
      return "rank " + std::to_string(r) + " received more than 2 (G - 1) chunks";
    }
  }
  // In each step the ranks together receive every chunk once, the whole vector: copies that
  // carry less leave the data to move some other way.
  std::size_t carried = 0;
  for (const std::size_t floats : received)
    carried += floats;
  const std::size_t ring = 2 * static_cast<std::size_t>(g - 1) * n;
  if (carried != ring) {
    return "the copies carried " + std::to_string(carried) +
           " floats in all, not 2 (G - 1) n = " + std::to_string(ring) +
           ": in each step the ranks together receive the whole vector";
  }
  return "";
}

}  // namespace

TEST_CASE("the ring all-reduce leaves every rank the exact sum, moving only chunks round the ring",
          "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (int g = 2; g <= 4; ++g) {
    grading07::TestRanks ranks(g);
    for (std::size_t n : course::test::drawn_sizes(
             seed + static_cast<std::uint64_t>(g), {1, 2, 3, 5, 4097, 1000003},
             {static_cast<std::size_t>(g), 32, 256, 4096}, 300000, 3, "n per rank")) {
      const std::size_t chunk = (n + g - 1) / g;
      std::vector<std::vector<float>> inputs(static_cast<std::size_t>(g), std::vector<float>(n));
      std::vector<float> expected(n, 0.0f);
      for (int r = 0; r < g; ++r) {
        for (std::size_t i = 0; i < n; ++i) {
          inputs[r][i] = element(seed, r, i);
          expected[i] += inputs[r][i];
        }
      }
      std::vector<course::DeviceBuffer<float>> data, scratch;
      std::vector<float*> data_at, scratch_at;
      for (int r = 0; r < g; ++r) {
        CUDA_CHECK(cudaSetDevice(ranks.devices[r]));
        data.emplace_back(n);
        scratch.emplace_back(chunk);
        data_at.push_back(data.back().data());
        scratch_at.push_back(scratch.back().data());
      }
      for (int round = 0; round < 2; ++round) {
        for (int r = 0; r < g; ++r) {
          CUDA_CHECK(cudaSetDevice(ranks.devices[r]));
          data[r].upload(inputs[r]);
          scratch[r].fill_bytes(0xFF);
        }
        ranks.synchronize();
        const std::vector<grading07::Copy> copies =
            grading07::ring_allreduce(ranks.devices, ranks.streams, data_at, scratch_at, n);
        ranks.synchronize();
        INFO(g << " ranks, n = " << n << ", round " << round);
        REQUIRE(ring_problem(copies, g, n) == "");
        for (int r = 0; r < g; ++r) {
          CUDA_CHECK(cudaSetDevice(ranks.devices[r]));
          INFO("rank " << r);
          REQUIRE(course::test::mismatch(data[r].download(), expected) == "");
        }
        CUDA_CHECK(cudaSetDevice(ranks.devices[0]));
      }
    }
  }
}

TEST_CASE("timing: four ranks, 2^24 floats each", "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR), without the held
  // streams: six steps of a quarter of 64 MiB, three of them adding it. An add done by one warp
  // instead of a grid takes many times as long.
  const std::size_t n = std::size_t{1} << 24;
  const int g = 4;
  grading07::TestRanks ranks(g);
  std::vector<course::DeviceBuffer<float>> data, scratch, pristine;
  std::vector<float*> data_at, scratch_at;
  std::vector<float> expected(n, 0.0f);
  for (int r = 0; r < g; ++r) {
    std::vector<float> input(n);
    for (std::size_t i = 0; i < n; ++i) {
      input[i] = element(course::test::seed(), r, i);
      expected[i] += input[i];
    }
    CUDA_CHECK(cudaSetDevice(ranks.devices[r]));
    pristine.emplace_back(input);
    data.emplace_back(n);
    scratch.emplace_back(n / g);
    data_at.push_back(data.back().data());
    scratch_at.push_back(scratch.back().data());
  }
  auto restore = [&] {  // off the clock: every call starts from the inputs
    for (int r = 0; r < g; ++r) {
      CUDA_CHECK(cudaSetDevice(ranks.devices[r]));
      CUDA_CHECK(
          cudaMemcpy(data_at[r], pristine[r].data(), n * sizeof(float), cudaMemcpyDeviceToDevice));
    }
    ranks.synchronize();
  };
  course::test::report_time(
      [&] {
        grading07::ring_allreduce(ranks.devices, ranks.streams, data_at, scratch_at, n, false);
      },
      9, restore);
  for (int r = 0; r < g; ++r) {
    CUDA_CHECK(cudaSetDevice(ranks.devices[r]));
    INFO("rank " << r);
    REQUIRE(course::test::mismatch(data[r].download(), expected) == "");
  }
  CUDA_CHECK(cudaSetDevice(ranks.devices[0]));
}
