// Grades exercise 2 of lesson 02: warp_sum and block_sum in block_sum.cuh. A probe kernel gives
// every thread a known value and reads thread 0's result, for every block size; then the whole
// reduction is checked. Fresh random inputs each run (the seed is printed).
#include <block_sum.cuh>  // <>: the starter or the solution, whichever the build chose

#include <vector>

#include "reference.hpp"
#include "testing.hpp"

namespace {

// Thread t of block b contributes values[b * blockDim.x + t]; thread 0 writes the block's sum.
__global__ void probe_kernel(const int* values, int* sums, int* warp_lane0) {
  const int v = values[blockIdx.x * blockDim.x + threadIdx.x];
  const int w = exercise02::warp_sum(v);
  if (threadIdx.x % 32 == 0) warp_lane0[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = w;
  const int s = exercise02::block_sum(v);
  if (threadIdx.x == 0) sums[blockIdx.x] = s;
}

}  // namespace

TEST_CASE("warp_sum and block_sum, for every block size", "[gpu]") {
  const int blocks = 3;
  for (int threads : {32, 64, 96, 160, 256, 512, 992, 1024}) {
    const std::size_t count = static_cast<std::size_t>(blocks) * threads;
    const auto values =
        lesson02::make_input<int>(count, lesson02::Dist::uniform, course::test::seed() + threads);
    const course::DeviceBuffer<int> d_values(values);
    course::DeviceBuffer<int> d_sums(blocks);
    course::DeviceBuffer<int> d_warps(count / 32);
    d_sums.fill_bytes(0xFF);
    d_warps.fill_bytes(0xFF);
    probe_kernel<<<blocks, threads>>>(d_values.data(), d_sums.data(), d_warps.data());
    CUDA_CHECK_LAUNCH();
    const auto sums = d_sums.download();
    const auto warps = d_warps.download();
    for (int b = 0; b < blocks; ++b) {
      INFO(threads << " threads per block, block " << b);
      CHECK(sums[b] == lesson02::reference_sum(values.data() + b * threads, threads));
    }
    for (std::size_t w = 0; w < count / 32; ++w) {
      INFO(threads << " threads per block, warp " << w);
      CHECK(warps[w] == lesson02::reference_sum(values.data() + w * 32, 32));
    }
  }
}

TEST_CASE("the reduction built on block_sum is exact for ints and whole-number floats", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  for (std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{4097}, std::size_t{1000003},
                        std::size_t{1 + seed % 500000}}) {
    const auto ints = lesson02::make_input<int>(n, lesson02::Dist::uniform, seed + n);
    const course::DeviceBuffer<int> d_ints(ints);
    course::test::GuardedBuffer<int> r_int(1);
    r_int.poison(0xFF);
    exercise02::reduce_with_block_sum(d_ints.data(), n, r_int.data());
    INFO("ints, n = " << n);
    CHECK(r_int.download()[0] == lesson02::reference_sum(ints.data(), n));
    CHECK(r_int.guards_intact());

    const auto floats = lesson02::make_input<float>(n, lesson02::Dist::integers, seed + n);
    const course::DeviceBuffer<float> d_floats(floats);
    course::test::GuardedBuffer<float> r_float(1);
    r_float.poison(0xFF);
    exercise02::reduce_with_block_sum(d_floats.data(), n, r_float.data());
    INFO("floats, n = " << n);
    CHECK(static_cast<double>(r_float.download()[0]) == lesson02::reference_sum(floats.data(), n));
  }
}
