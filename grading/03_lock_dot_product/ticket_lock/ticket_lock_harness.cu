// The harness of exercise 1 (lesson 03): many blocks add their sums into one plain int under the
// student's TicketLock. Inside the critical section the harness counts the holders (two at once is
// an overlap) and checks that the k-th holder to enter is the one whose ticket is k. A second
// kernel measures first come, first served by arrival: one block at a time comes to the lock, in
// an order the tests draw, while the first holder keeps everyone else waiting.
//
// A third kernel has every thread of its blocks take the lock, the lanes of a warp together, as
// any caller may: a lock that lets a warp's lanes in on one ticket is caught with two inside.
//
// The lock is made inside the kernels from the two counters' addresses, so none of the answer's
// code runs in the harness's host code. Compiled for the compiled-code check (GRADING_SASS), the
// locked sum keeps only the lock and the plain add: the probes' atomics are the harness's, not the
// answer's; and two kernels call lock() alone and unlock() alone, so that the check can ask for
// each ordering where it belongs.
#include "../../probes/harness.hpp"

#include <cuda/atomic>

#include <ticket_lock.cuh>  // the student's file

#include <vector>

#include <02_reduce/block_reduce.cuh>  // lesson02::block_sum (after the student's file)

#include "../../../common/launch.hpp"
#include "ticket_lock_harness.hpp"

namespace grading03 {
namespace {

constexpr int kThreads = 256;
using Word = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;

struct Probe {
  int* total;
  int* inside;        // holders inside the critical section now
  int* overlaps;      // entries that found another holder inside
  unsigned* entered;  // holders that have entered so far
  int* out_of_turn;   // entries that found *serving != their place in line
};

}  // namespace

// (The kernels are outside the anonymous namespace, so that the compiled-code check's messages can
// name them.)
__global__ void locked_sum_kernel(const int* values, std::size_t n, unsigned* next,
                                  unsigned* serving, Probe probe) {
  int sum = 0;
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride())
    sum += values[i];
  __shared__ lesson02::WarpSlots<int> warp_sums;
  sum = lesson02::block_sum(sum, warp_sums);
  if (threadIdx.x != 0) return;

  const exercise03::TicketLock lock{next, serving};
  lock.lock();
#ifndef GRADING_SASS
  if (atomicAdd(probe.inside, 1) != 0) atomicAdd(probe.overlaps, 1);
  // The k-th holder to enter must find serving == k: its ticket's turn.
  const unsigned place = atomicAdd(probe.entered, 1u);
  if (Word(*serving).load(cuda::memory_order_relaxed) != place) atomicAdd(probe.out_of_turn, 1);
#endif
  *probe.total += sum;  // a plain read and write: only the lock protects them
#ifndef GRADING_SASS
  atomicSub(probe.inside, 1);
#endif
  lock.unlock();
}

#ifdef GRADING_SASS
// lock() alone: the wait for one's turn must end with an acquire here (an acquiring load of
// *serving, or a fence after it), not on the ticket's fetch-and-add before the wait.
__global__ void lock_only_kernel(unsigned* next, unsigned* serving) {
  exercise03::TicketLock{next, serving}.lock();
}

// unlock() alone: the next turn must be given with a release here (a releasing store or atomic on
// *serving, or a fence before it), not on the next lock()'s fetch-and-add.
__global__ void unlock_only_kernel(unsigned* next, unsigned* serving) {
  exercise03::TicketLock{next, serving}.unlock();
}
#endif

#ifndef GRADING_SASS
// Every thread takes the lock once, the lanes of a warp at the same time, and adds 1 to the plain
// total inside: the probes as in locked_sum_kernel.
__global__ void every_thread_kernel(unsigned* next, unsigned* serving, Probe probe) {
  const exercise03::TicketLock lock{next, serving};
  lock.lock();
  if (atomicAdd(probe.inside, 1) != 0) atomicAdd(probe.overlaps, 1);
  const unsigned place = atomicAdd(probe.entered, 1u);
  if (Word(*serving).load(cuda::memory_order_relaxed) != place) atomicAdd(probe.out_of_turn, 1);
  *probe.total += 1;  // a plain read and write: only the lock protects them
  atomicSub(probe.inside, 1);
  lock.unlock();
}

namespace {

struct QueueProbe {
  unsigned long long* marks;  // per place in the arrival order: 1 + `next` just before lock()
  int* inside;
  int* overlaps;
  unsigned* entered;
  int* out_of_order;
};

}  // namespace

// Waits until the arrival at `place` has taken its ticket: it has left its mark, and `next` is no
// longer what it was then (a ticket lock's fetch-and-add moved it on).
__device__ void wait_for_ticket_of(const QueueProbe& probe, int place, unsigned* next) {
  using Mark = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;
  unsigned long long mark = 0;
  while ((mark = Mark(probe.marks[place]).load(cuda::memory_order_acquire)) == 0) {
  }
  while (Word(*next).load(cuda::memory_order_relaxed) == static_cast<unsigned>(mark - 1)) {
  }
}

__global__ void queue_kernel(const int* arrival, int waiters, int caller, unsigned* next,
                             unsigned* serving, QueueProbe probe) {
  if (static_cast<int>(threadIdx.x) != caller) return;
  const int mine = arrival[blockIdx.x];
  if (mine > 0) wait_for_ticket_of(probe, mine - 1, next);
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(probe.marks[mine])
      .store(1ull + Word(*next).load(cuda::memory_order_relaxed), cuda::memory_order_release);
  const exercise03::TicketLock lock{next, serving};
  lock.lock();
  if (atomicAdd(probe.inside, 1) != 0) atomicAdd(probe.overlaps, 1);
  const unsigned place = atomicAdd(probe.entered, 1u);
  // The first holder keeps the lock until the last arrival has its ticket: all the others queue.
  if (place == 0) wait_for_ticket_of(probe, waiters - 1, next);
  if (place != static_cast<unsigned>(mine)) atomicAdd(probe.out_of_order, 1);
  atomicSub(probe.inside, 1);
  lock.unlock();
}
#endif

LockOutcome locked_sums(const int* d_values, std::size_t n, long long expected, int blocks,
                        int runs) {
  course::DeviceBuffer<unsigned> counters(2);  // next, serving
  course::DeviceBuffer<int> probe_words(5);    // total, inside, overlaps, entered, out_of_turn
  const Probe probe{probe_words.data(), probe_words.data() + 1, probe_words.data() + 2,
                    reinterpret_cast<unsigned*>(probe_words.data() + 3), probe_words.data() + 4};
  LockOutcome outcome;
  for (int r = 0; r < runs; ++r) {
    counters.fill_bytes(0);
    probe_words.fill_bytes(0);
    grading::watched([&] {
      locked_sum_kernel<<<blocks, kThreads>>>(d_values, n, counters.data(), counters.data() + 1,
                                              probe);
    });
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

LockOutcome every_thread_locks(int blocks, int threads) {
  LockOutcome outcome;
#ifndef GRADING_SASS
  course::DeviceBuffer<unsigned> counters(2);  // next, serving
  course::DeviceBuffer<int> probe_words(5);    // total, inside, overlaps, entered, out_of_turn
  const Probe probe{probe_words.data(), probe_words.data() + 1, probe_words.data() + 2,
                    reinterpret_cast<unsigned*>(probe_words.data() + 3), probe_words.data() + 4};
  counters.fill_bytes(0);
  probe_words.fill_bytes(0);
  grading::watched([&] {
    every_thread_kernel<<<blocks, threads>>>(counters.data(), counters.data() + 1, probe);
  });
  const std::vector<int> got = probe_words.download();
  const std::vector<unsigned> lock_counters = counters.download();
  const auto callers = static_cast<unsigned>(blocks) * static_cast<unsigned>(threads);
  outcome.wrong_runs = static_cast<unsigned>(got[0]) != callers;
  outcome.overlaps = got[2];
  outcome.out_of_turn = got[4];
  outcome.miscounted_runs = lock_counters[0] != callers || lock_counters[1] != callers;
#else
  (void)blocks;
  (void)threads;
#endif
  return outcome;
}

QueueOutcome queued_entries(const std::vector<int>& arrival, int threads, int caller) {
  QueueOutcome outcome;
#ifndef GRADING_SASS
  const int waiters = static_cast<int>(arrival.size());
  const course::DeviceBuffer<int> d_arrival(arrival);
  course::DeviceBuffer<unsigned> counters(2);  // next, serving
  course::DeviceBuffer<unsigned long long> marks(arrival.size());
  course::DeviceBuffer<int> probe_words(4);  // inside, overlaps, entered, out_of_order
  counters.fill_bytes(0);
  marks.fill_bytes(0);
  probe_words.fill_bytes(0);
  const QueueProbe probe{marks.data(), probe_words.data(), probe_words.data() + 1,
                         reinterpret_cast<unsigned*>(probe_words.data() + 2),
                         probe_words.data() + 3};
  // Only the block's thread `caller` comes to the lock; a few blocks an SM, of at most 256 threads,
  // are resident at once on every GPU the course supports.
  grading::watched([&] {
    queue_kernel<<<waiters, threads>>>(d_arrival.data(), waiters, caller, counters.data(),
                                       counters.data() + 1, probe);
  });
  const std::vector<int> got = probe_words.download();
  const std::vector<unsigned> lock_counters = counters.download();
  outcome.overlaps = got[1];
  outcome.out_of_order = got[3];
  outcome.miscounted = lock_counters[0] != static_cast<unsigned>(waiters) ||
                       lock_counters[1] != static_cast<unsigned>(waiters);
#else
  (void)arrival;
  (void)threads;
  (void)caller;
#endif
  return outcome;
}

}  // namespace grading03
