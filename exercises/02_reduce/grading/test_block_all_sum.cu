// Grades exercise 2 of lesson 02: warp_all_sum and block_all_sum (block_all_sum.cuh). Every thread
// of every block must get its block's sum, for every block size, on two calls in a row; ints must
// be exact, and floats must be, bit for bit, the sum in the order the exercise fixes (a butterfly
// of xor shuffles in each warp, then the same over the warps' sums), which a sum in any other order
// (a loop, a tree in shared memory) almost never is. Fresh random inputs each run (the seed is
// printed).
#include <cmath>
#include <random>
#include <vector>

#include "bits.hpp"
#include "block_all_sum_harness.hpp"
#include "launch.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace {

// The butterfly on the CPU: after the steps with offsets 16, 8, 4, 2, 1, every lane holds the same
// sum (x + y and y + x are the same float), which is returned.
float butterfly(std::vector<float> lanes) {
  for (int offset = course::kWarpSize / 2; offset > 0; offset /= 2) {
    std::vector<float> next(course::kWarpSize);
    for (int l = 0; l < course::kWarpSize; ++l)
      next[l] = lanes[l] + lanes[l ^ offset];
    lanes = next;
  }
  return lanes[0];
}

// The block's sum in the exercise's order.
float block_order_sum(const float* v, int threads) {
  std::vector<float> warp_sums(course::kWarpSize, 0.0f);
  for (int w = 0; w < threads / course::kWarpSize; ++w)
    warp_sums[w] =
        butterfly(std::vector<float>(v + w * course::kWarpSize, v + (w + 1) * course::kWarpSize));
  return butterfly(warp_sums);
}

// Floats of very different sizes, so that the order of the additions shows in the bits.
std::vector<float> spread_floats(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  std::uniform_int_distribution<int> exponent(-20, 20);
  std::vector<float> v(n);
  for (float& x : v)
    x = std::ldexp(mantissa(rng), exponent(rng)) * (rng() % 2 ? 1.0f : -1.0f);
  return v;
}

}  // namespace

TEST_CASE("every thread gets its block's sum of ints, for every block size", "[gpu]") {
  const int blocks = 3;
  for (int threads : {32, 64, 96, 160, 256, 512, 992, 1024}) {
    const std::size_t count = static_cast<std::size_t>(blocks) * threads;
    const auto values =
        lesson02::make_input<int>(count, lesson02::Dist::uniform, course::test::seed() + threads);
    const course::DeviceBuffer<int> d_values(values);
    course::test::GuardedBuffer<int> first(count);
    course::test::GuardedBuffer<int> second(count);
    first.poison(0xFF);
    second.poison(0xFF);
    grading02::all_sums(d_values.data(), blocks, threads, first.data(), second.data());
    const std::vector<int> got = first.download();
    const std::vector<int> got_twice = second.download();
    REQUIRE(first.guards_intact());
    REQUIRE(second.guards_intact());
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t b = i / threads;
      const long long expected = lesson02::reference_sum(values.data() + b * threads, threads);
      INFO(threads << " threads per block: thread " << i % threads << " of block " << b);
      REQUIRE(got[i] == expected);
      INFO("the second call, on 2 v");
      REQUIRE(got_twice[i] == 2 * expected);
    }
  }
}

TEST_CASE("float sums add up in the exercise's order, bit for bit, in every thread", "[gpu]") {
  const int blocks = 4;
  for (int threads : {32, 96, 256, 1024}) {
    const std::size_t count = static_cast<std::size_t>(blocks) * threads;
    const std::vector<float> values = spread_floats(count, course::test::seed() + threads);
    const course::DeviceBuffer<float> d_values(values);
    course::DeviceBuffer<float> first(count);
    course::DeviceBuffer<float> second(count);
    grading02::all_sums(d_values.data(), blocks, threads, first.data(), second.data());
    const std::vector<float> got = first.download();
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t b = i / threads;
      const float expected = block_order_sum(values.data() + b * threads, threads);
      INFO(threads << " threads per block: thread " << i % threads << " of block " << b << " got "
                   << got[i] << ", the exercise's order gives " << expected << ": the bits differ");
      REQUIRE(course::bits_of(got[i]) == course::bits_of(expected));
    }
  }
}
