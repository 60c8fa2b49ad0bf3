// Grades exercise 1 of lesson 03: exercise03::Lock in lock.cuh. Many blocks add their sums into one
// plain int under the lock, 20 times over, with fresh random values each run of the tests (the
// seed is printed; COURSE_TEST_SEED repeats it). A lock without acquire and release ordering
// loses updates once an SM runs several blocks; a lock that lets two holders in at once is caught
// in the act.
#include <lock.cuh>  // <>: the starter or the solution, whichever the build chose

#include <vector>

#include "block_reduce.cuh"
#include "device_memory.hpp"
#include "inputs.hpp"
#include "launch.hpp"
#include "testing.hpp"

namespace {

constexpr int kThreads = 256;

// Each block sums its share of `values`; then its thread 0, holding the lock, adds that sum to
// *total with a plain read and write, which only the lock protects. `inside` counts the threads
// in the critical section at once; `overlaps` counts the times there were two.
__global__ void locked_sum_kernel(const int* values, std::size_t n, exercise03::Lock lock,
                                  int* total, int* inside, int* overlaps) {
  int sum = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    sum += values[i];
  }
  sum = course::block_sum(sum);
  if (threadIdx.x == 0) {
    lock.lock();
    if (atomicAdd(inside, 1) != 0) atomicAdd(overlaps, 1);
    *total += sum;
    atomicSub(inside, 1);
    lock.unlock();
  }
}

struct Outcome {
  int wrong_runs = 0;
  int overlaps = 0;
};

Outcome run_many(int blocks, int runs) {
  const std::size_t n = std::size_t{1} << 20;
  const std::vector<int> values = course::random_ints<int>(n, course::test::seed(), -100, 100);
  long long expected = 0;
  for (int v : values)
    expected += v;
  const course::DeviceBuffer<int> d_values(values);
  course::DeviceBuffer<int> word(1);
  course::DeviceBuffer<int> counters(3);  // total, inside, overlaps
  word.fill_bytes(0);
  Outcome outcome;
  for (int r = 0; r < runs; ++r) {
    counters.fill_bytes(0);
    locked_sum_kernel<<<blocks, kThreads>>>(d_values.data(), n, exercise03::Lock{word.data()},
                                            counters.data(), counters.data() + 1,
                                            counters.data() + 2);
    CUDA_CHECK_LAUNCH();
    const std::vector<int> got = counters.download();
    if (got[0] != expected) ++outcome.wrong_runs;
    outcome.overlaps += got[2];
  }
  return outcome;
}

}  // namespace

TEST_CASE("the lock keeps every block's sum with 8 blocks per SM, 20 runs", "[gpu]") {
  const Outcome outcome = run_many(8 * course::sm_count(), 20);
  INFO(outcome.overlaps << " times two threads were inside the lock at once");
  CHECK(outcome.overlaps == 0);
  INFO(outcome.wrong_runs << " of 20 runs lost or repeated a block's sum");
  CHECK(outcome.wrong_runs == 0);
}

TEST_CASE("the lock keeps every block's sum with 8192 blocks, more than fit at once", "[gpu]") {
  const Outcome outcome = run_many(8192, 20);
  INFO(outcome.overlaps << " times two threads were inside the lock at once");
  CHECK(outcome.overlaps == 0);
  INFO(outcome.wrong_runs << " of 20 runs lost or repeated a block's sum");
  CHECK(outcome.wrong_runs == 0);
}
