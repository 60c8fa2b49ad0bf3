// The harness of exercise 1 (lesson 03): many blocks add their sums into one plain int under the
// student's TicketLock. Inside the critical section the harness counts the holders (two at once is
// an overlap) and checks that the k-th holder to enter is the one whose ticket is k.
#include "../../grading/harness.hpp"

#include <cuda/atomic>

#include <ticket_lock.cuh>  // the student's file

#include <vector>

#include "../../../common/launch.hpp"
#include "../../../lessons/02_reduce/block_reduce.cuh"  // lesson02::block_sum (after the student's file)
#include "ticket_lock_harness.hpp"

namespace grading03 {
namespace {

constexpr int kThreads = 256;

struct Probe {
  int* total;
  int* inside;        // holders inside the critical section now
  int* overlaps;      // entries that found another holder inside
  unsigned* entered;  // holders that have entered so far
  int* out_of_turn;   // entries that found *serving != their place in line
};

__global__ void locked_sum_kernel(const int* values, std::size_t n, exercise03::TicketLock lock,
                                  Probe probe) {
  int sum = 0;
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride())
    sum += values[i];
  __shared__ lesson02::WarpSlots<int> warp_sums;
  sum = lesson02::block_sum(sum, warp_sums);
  if (threadIdx.x != 0) return;

  lock.lock();
  if (atomicAdd(probe.inside, 1) != 0) atomicAdd(probe.overlaps, 1);
  // The k-th holder to enter must find serving == k: its ticket's turn.
  const unsigned place = atomicAdd(probe.entered, 1u);
  const unsigned serving = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*lock.serving)
                               .load(cuda::memory_order_relaxed);
  if (serving != place) atomicAdd(probe.out_of_turn, 1);
  *probe.total += sum;  // a plain read and write: only the lock protects them
  atomicSub(probe.inside, 1);
  lock.unlock();
}

}  // namespace

LockOutcome locked_sums(const int* d_values, std::size_t n, long long expected, int blocks,
                        int runs) {
  course::DeviceBuffer<unsigned> counters(2);  // next, serving
  course::DeviceBuffer<int> probe_words(5);    // total, inside, overlaps, entered, out_of_turn
  const Probe probe{probe_words.data(), probe_words.data() + 1, probe_words.data() + 2,
                    reinterpret_cast<unsigned*>(probe_words.data() + 3), probe_words.data() + 4};
  const exercise03::TicketLock lock{counters.data(), counters.data() + 1};
  LockOutcome outcome;
  for (int r = 0; r < runs; ++r) {
    counters.fill_bytes(0);
    probe_words.fill_bytes(0);
    grading::watched([&] { locked_sum_kernel<<<blocks, kThreads>>>(d_values, n, lock, probe); });
    const std::vector<int> got = probe_words.download();
    const std::vector<unsigned> lock_counters = counters.download();
    outcome.wrong_runs += got[0] != expected;
    outcome.overlaps += got[2];
    outcome.out_of_turn += got[4];
    outcome.miscounted_runs += lock_counters[0] != static_cast<unsigned>(blocks) ||
                               lock_counters[1] != static_cast<unsigned>(blocks);
  }
  return outcome;
}

}  // namespace grading03
