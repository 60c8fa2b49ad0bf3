// Grades exercise 2 of lesson 02: warp_all_sum and block_all_sum (block_all_sum.cuh). Every thread
// of every block must get its block's sum, for every block size, on two calls in a row; ints and
// 64-bit ints must be exact (with values large enough that a float on the way loses bits), and
// floats and doubles must be, bit for bit, the sum in the order the exercise fixes (a butterfly of
// xor shuffles in each warp, then the same over the warps' sums), which a sum in any other order (a
// loop, a tree in shared memory) almost never is; and every thread's shuffles are counted in every
// checked run, so that a second stage without a butterfly in every warp shows, and a run whose
// shuffles each deliver 1 more must give every thread another sum. Inputs, block sizes and grids
// come from the run's seed (printed at the start; COURSE_TEST_SEED repeats it).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "block_all_sum_harness.hpp"
#include "launch.hpp"
#include "reference.hpp"
#include "testing.hpp"

namespace {

using course::test::drawn;

// Block sizes: multiples of 32 (the exercise's promise), the usual ones and three from the seed.
std::vector<int> block_sizes(std::uint64_t seed) {
  std::vector<int> sizes = {32, 64, 96, 160, 256, 512, 992, 1024};
  for (int k = 0; k < 3; ++k)
    sizes.push_back(32 * (1 + static_cast<int>(drawn(seed, 50 + k) % 32)));
  std::string text = "block_all_sum threads per block =";
  for (std::size_t i = 0; i < sizes.size(); ++i)
    text += (i == 0 ? " " : ", ") + std::to_string(sizes[i]);
  course::test::result_line("COURSE-SIZES", text + course::test::seed_note(seed));
  return sizes;
}

// The butterfly on the CPU: after the steps with offsets 16, 8, 4, 2, 1, every lane holds the same
// sum (x + y and y + x are the same float), which is returned.
template <typename T>
T butterfly(std::vector<T> lanes) {
  for (int offset = course::kWarpSize / 2; offset > 0; offset /= 2) {
    std::vector<T> next(course::kWarpSize);
    for (int l = 0; l < course::kWarpSize; ++l)
      next[l] = lanes[l] + lanes[l ^ offset];
    lanes = next;
  }
  return lanes[0];
}

// The block's sum in the exercise's order.
template <typename T>
T block_order_sum(const T* v, int threads) {
  std::vector<T> warp_sums(course::kWarpSize, T(0));
  for (int w = 0; w < threads / course::kWarpSize; ++w)
    warp_sums[w] =
        butterfly(std::vector<T>(v + w * course::kWarpSize, v + (w + 1) * course::kWarpSize));
  return butterfly(warp_sums);
}

// Floats of very different sizes, so that the order of the additions shows in the bits.
template <typename T>
std::vector<T> spread(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<T> mantissa(1, 2);
  std::uniform_int_distribution<int> exponent(-20, 20);
  std::vector<T> v(n);
  for (T& x : v)
    x = std::ldexp(mantissa(rng), exponent(rng)) * (rng() % 2 ? 1 : -1);
  return v;
}

// What every checked run's shuffles must be. The bits are those of the exercise's order however
// the second stage gets them: one warp that adds up the warps' sums and hands the block's sum to
// the others through shared memory, or every thread replaying the butterfly's additions in its own
// registers, gets the same bits. Neither is a butterfly in every warp: so every shuffle is
// counted, per thread, in the very runs whose sums are checked. Each call, every thread makes five
// xor shuffles for its warp's sum and at least log2(warps) more for the block's (the exercise's
// five, offsets 16 to 1), and every thread of a block makes as many as the others: every warp
// adds up the warps' sums itself.
void check_shuffles(const std::vector<unsigned>& shuffles, int threads, const char* what) {
  const int warps = threads / course::kWarpSize;
  unsigned least = 5;
  for (int w = 1; w < warps; w *= 2)
    ++least;
  least *= 2;  // two calls
  for (std::size_t i = 0; i < shuffles.size(); ++i) {
    const std::size_t b = i / threads;
    if (shuffles[i] >= least && shuffles[i] == shuffles[b * threads]) continue;
    INFO(what << ", " << threads << " threads per block: thread " << i % threads << " of block "
              << b << " made " << shuffles[i] << " shuffles in two calls, thread 0 of its block "
              << shuffles[b * threads] << "; every thread makes five for its warp's sum and at "
              << "least log2(" << warps << ") for the block's, " << least << " in two calls");
    REQUIRE(shuffles[i] >= least);
    REQUIRE(shuffles[i] == shuffles[b * threads]);
  }
}

// Every thread's two results against its block's exact sum (ints of either width).
template <typename T>
void check_exact(const std::vector<T>& values, int blocks, int threads, const char* what) {
  const std::size_t count = values.size();
  const course::DeviceBuffer<T> d_values(values);
  course::test::GuardedBuffer<T> first(count);
  course::test::GuardedBuffer<T> second(count);
  first.poison(0xFF);
  second.poison(0xFF);
  const std::vector<unsigned> shuffles =
      grading02::all_sums(d_values.data(), blocks, threads, first.data(), second.data());
  const std::vector<T> got = first.download();
  const std::vector<T> got_twice = second.download();
  REQUIRE(first.guards_intact());
  REQUIRE(second.guards_intact());
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t b = i / threads;
    long long expected = 0;
    for (int t = 0; t < threads; ++t)
      expected += static_cast<long long>(values[b * threads + t]);
    INFO(what << ", " << threads << " threads per block: thread " << i % threads << " of block "
              << b);
    REQUIRE(static_cast<long long>(got[i]) == expected);
    INFO("the second call, on 2 v");
    REQUIRE(static_cast<long long>(got_twice[i]) == 2 * expected);
  }
  check_shuffles(shuffles, threads, what);
}

// Whether two floats or doubles have the same bits (a sum is only the exercise's if it is bit for
// bit).
template <typename T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Every thread's first result against the exercise's order of additions, bit for bit.
template <typename T>
void check_bits(const std::vector<T>& values, int blocks, int threads, const char* what) {
  const std::size_t count = values.size();
  const course::DeviceBuffer<T> d_values(values);
  course::DeviceBuffer<T> first(count);
  course::DeviceBuffer<T> second(count);
  const std::vector<unsigned> shuffles =
      grading02::all_sums(d_values.data(), blocks, threads, first.data(), second.data());
  const std::vector<T> got = first.download();
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t b = i / threads;
    const T expected = block_order_sum(values.data() + b * threads, threads);
    INFO(what << ", " << threads << " threads per block: thread " << i % threads << " of block "
              << b << " got " << got[i] << ", the exercise's order gives " << expected
              << ": the bits differ");
    REQUIRE(same_bits(got[i], expected));
  }
  check_shuffles(shuffles, threads, what);
}

}  // namespace

TEST_CASE("every thread gets its block's sum of ints, for every block size", "[gpu]") {
  // Values up to 2^22 either way: a warp's sum passes 2^24, where a float on the way loses bits
  // (a block's sum of 1,024, some 2^26, is still far from 2^31).
  const std::uint64_t seed = course::test::seed();
  const int blocks = 2 + static_cast<int>(drawn(seed, 60) % 5);
  for (int threads : block_sizes(seed)) {
    const std::size_t count = static_cast<std::size_t>(blocks) * threads;
    check_exact(course::random_ints<int>(count, seed + threads, -(1 << 22), 1 << 22), blocks,
                threads, "ints");
    check_exact(course::random_ints<long long>(count, seed + threads + 1, -(1ll << 40), 1ll << 40),
                blocks, threads, "64-bit ints");
  }
}

TEST_CASE("float sums add up in the exercise's order, bit for bit, in every thread", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  const int blocks = 2 + static_cast<int>(drawn(seed, 61) % 5);
  for (int threads : block_sizes(seed)) {
    const std::size_t count = static_cast<std::size_t>(blocks) * threads;
    check_bits(spread<float>(count, seed + threads), blocks, threads, "floats");
    check_bits(spread<double>(count, seed + threads + 1), blocks, threads, "doubles");
  }
}

TEST_CASE("every thread's sum comes through its own shuffles", "[gpu]") {
  // The shuffles are counted in every checked run above. Here runs on random ints are made with
  // every shuffle delivering 1 more than it should, then with every shuffle delivering what the
  // neighbouring lane (lane ^ 1) got. A thread whose block sum comes through its butterflies gets
  // another sum in both calls under the first, and some threads of every block do under the
  // second; one that makes its shuffles for show and adds up the block some other way (in shared
  // memory, say) keeps the right sums under one of them (a shuffled constant is changed by the
  // first, not by the second).
  const std::uint64_t seed = course::test::seed();
  const int blocks = 2 + static_cast<int>(drawn(seed, 62) % 3);
  for (int threads : block_sizes(seed)) {
    const std::size_t count = static_cast<std::size_t>(blocks) * threads;
    const std::vector<int> values =
        course::random_ints<int>(count, seed + threads + 2, -(1 << 22), 1 << 22);
    const course::DeviceBuffer<int> d_values(values);
    course::DeviceBuffer<int> first(count);
    course::DeviceBuffer<int> second(count);
    check_exact(values, blocks, threads, "ints, untampered");  // the sums are right as they are
    for (const grading::Tamper tamper : {grading::Tamper::plus_one, grading::Tamper::swap_pairs}) {
      grading02::all_sums(d_values.data(), blocks, threads, first.data(), second.data(), tamper);
      const std::vector<int> got = first.download();
      const std::vector<int> got_twice = second.download();
      std::size_t same = 0;       // threads that got their block's right sum in a call
      std::size_t unchanged = 0;  // blocks in which every thread did
      for (int b = 0; b < blocks; ++b) {
        long long expected = 0;
        for (int t = 0; t < threads; ++t)
          expected += values[static_cast<std::size_t>(b) * threads + t];
        std::size_t right = 0;
        for (int t = 0; t < threads; ++t) {
          const std::size_t i = static_cast<std::size_t>(b) * threads + t;
          right += got[i] == expected || got_twice[i] == 2 * expected;
        }
        same += right;
        unchanged += right == static_cast<std::size_t>(threads);
      }
      const bool plus_one = tamper == grading::Tamper::plus_one;
      INFO("sums unchanged with every shuffle delivering "
           << (plus_one ? "1 more than it should: " : "what the neighbouring lane got: ")
           << (plus_one ? same : unchanged) << (plus_one ? " threads of " : " blocks of ")
           << (plus_one ? count : static_cast<std::size_t>(blocks)) << " (" << threads
           << " threads per block; each thread's sum must come through its own shuffles)");
      CHECK((plus_one ? same : unchanged) == 0);
    }
  }
}

TEST_CASE("timing: 8,192 block sums in a row, blocks of 1,024", "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR in the lesson's
  // CMakeLists.txt). Every thread of a full GPU calls block_all_sum 8,192 times on ints, whose
  // order no test can see: the model answer's two butterflies and two barriers a call take some
  // hundreds of cycles; an answer in which one thread adds up the block's 1,024 values in a loop,
  // for ints only, takes several times as long.
  const std::uint64_t seed = course::test::seed();
  const int blocks = grading02::repeated_sums_blocks();
  const int threads = grading02::kRepeatThreads;
  const std::size_t count = static_cast<std::size_t>(blocks) * threads;
  const std::vector<int> values = lesson02::make_input<int>(count, lesson02::Dist::uniform, seed);
  const course::DeviceBuffer<int> d_values(values);
  course::DeviceBuffer<int> out(count);
  course::test::report_time([&] { grading02::repeated_sums(d_values.data(), out.data()); });
  const std::vector<int> got = out.download();
  // Round r adds r & 7 to every value: the block's sum grows by threads x (r & 7).
  long long extra = 0;
  for (int r = 0; r < grading02::kRepeatRounds; ++r)
    extra += static_cast<long long>(threads) * (r & 7);
  for (int b = 0; b < blocks; ++b) {
    const long long sum = lesson02::reference_sum(values.data() + b * threads, threads);
    const long long expected = grading02::kRepeatRounds * sum + extra;
    for (int t = 0; t < threads; ++t) {
      INFO("block " << b << ", thread " << t << ": the sum of its 8,192 results");
      REQUIRE(got[b * threads + t] == expected);
    }
  }
}
