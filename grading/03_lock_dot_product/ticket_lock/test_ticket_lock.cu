// Grades exercise 1 of lesson 03: exercise03::TicketLock (ticket_lock.cuh). First come, first
// served is measured by arrival: blocks come to the lock one at a time, in an order drawn from the
// seed, while the first holder keeps them all waiting, and must enter in the order they came (a
// lock that only counts its holders, or serves them by block number, does not), with blocks of
// one warp and of other sizes, and a caller that is not always thread 0 (a lock must not tell the
// probe from the other tests by its launch's shape). Then many blocks add their sums into one
// plain int under the lock, 20 times over: a lock without acquire and release ordering loses
// updates once an SM runs several blocks; a lock that lets two holders in at once is caught in the
// act; a lock whose holders enter out of their ticket's turn is seen. And every thread of a few
// hundred blocks takes the lock, the 32 lanes of a warp at once: each is a caller of its own, and
// no two may be inside together. The grids and sizes are drawn from the seed (printed;
// COURSE_TEST_SEED repeats it), one of them past 65,536 tickets. A lock that is never released is
// stopped by the watchdog within seconds.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include "inputs.hpp"
#include "launch.hpp"
#include "testing.hpp"
#include "ticket_lock_harness.hpp"

namespace {

// A number from the seed in [lo, lo + span), printed for grade.py's report.
int drawn_count(std::uint64_t stream, int lo, int span, const char* what) {
  return static_cast<int>(course::test::drawn_in(course::test::seed(), stream,
                                                 static_cast<std::size_t>(lo),
                                                 static_cast<std::size_t>(span), what));
}

void check_lock(int blocks, int runs) {
  const std::uint64_t seed = course::test::seed();
  // Ints summed: a size drawn from the seed, at a warp or block edge or not.
  const std::size_t n = course::test::drawn_sizes(seed, {}, {32, 256, 4096}, std::size_t{3} << 20,
                                                  1, "ints summed under the lock")[0];
  const std::vector<int> values = course::random_ints<int>(n, seed + blocks, -100, 100);
  long long expected = 0;
  for (int v : values)
    expected += v;
  const course::DeviceBuffer<int> d_values(values);
  const grading03::LockOutcome outcome =
      grading03::locked_sums(d_values.data(), n, expected, blocks, runs);
  INFO(blocks << " blocks: " << outcome.overlaps << " times two threads were inside at once");
  CHECK(outcome.overlaps == 0);
  INFO(outcome.wrong_runs << " of " << runs << " runs lost or repeated a block's sum");
  CHECK(outcome.wrong_runs == 0);
  INFO(outcome.out_of_turn << " holders entered out of their ticket's turn");
  CHECK(outcome.out_of_turn == 0);
  INFO(outcome.miscounted_runs << " of " << runs
                               << " runs did not end with next == serving == the number of blocks");
  CHECK(outcome.miscounted_runs == 0);
}

}  // namespace

TEST_CASE("the ticket lock keeps every block's sum with 8 blocks per SM, 20 runs", "[gpu]") {
  check_lock(drawn_count(1010, 8 * course::sm_count() - 1, 3, "blocks, 8 per SM give or take 1"),
             20);
}

TEST_CASE("first come, first served: holders enter in the order they came to the lock", "[gpu]") {
  const std::uint64_t seed = course::test::seed();
  const int sms = course::sm_count();
  // 2 to 4 blocks an SM, of at most 256 threads: all resident at once, so the first holder can
  // wait for the rest. The blocks are of one warp, of the locked sums' 256 threads, and of two
  // sizes drawn from the seed, in an order drawn too; the thread that comes to the lock is drawn.
  const int waiters = drawn_count(1000, 2 * sms, 2 * sms + 1, "blocks queueing at the lock");
  std::vector<int> shapes = {32, 256, drawn_count(1060, 1, 256, "threads a block, a queue"),
                             drawn_count(1061, 33, 223, "threads a block, another queue")};
  std::shuffle(shapes.begin(), shapes.end(), std::mt19937_64(course::test::drawn(seed, 1062)));
  for (int run = 0; run < static_cast<int>(shapes.size()); ++run) {
    std::vector<int> arrival(static_cast<std::size_t>(waiters));  // arrival[b]: when block b comes
    std::iota(arrival.begin(), arrival.end(), 0);
    std::mt19937_64 rng(course::test::drawn(seed, 1001 + run));
    std::shuffle(arrival.begin(), arrival.end(), rng);
    if (arrival[0] == 0) std::swap(arrival[0], arrival[1]);  // block 0 never comes first
    const int threads = shapes[static_cast<std::size_t>(run)];
    const int caller = static_cast<int>(course::test::drawn(seed, 1050 + run) % threads);
    const grading03::QueueOutcome outcome = grading03::queued_entries(arrival, threads, caller);
    INFO(waiters << " blocks of " << threads << " threads (thread " << caller
                 << " of each comes to the lock), one at a time, each after the one before took "
                    "its ticket, run "
                 << run);
    INFO(outcome.overlaps << " times two threads were inside at once");
    CHECK(outcome.overlaps == 0);
    INFO(outcome.out_of_order
         << " holders entered out of their arrival order (a ticket lock serves them first come, "
            "first served)");
    CHECK(outcome.out_of_order == 0);
    INFO("next and serving must both end at the number of blocks");
    CHECK(!outcome.miscounted);
  }
}

TEST_CASE("every lane of a warp takes the lock: one holder at a time, each with its own ticket",
          "[gpu]") {
  // Any thread may call lock(), the 32 lanes of a warp together too (since Volta each lane goes its
  // own way, so one lane can hold the lock while the others of its warp wait): each caller takes
  // its own ticket and enters alone. Every thread of the grid takes the lock once and adds 1 to a
  // plain int inside; a lock that lets a warp's lanes in together on one ticket has them inside at
  // once, and loses their adds. The shapes are drawn from the seed, a block's last warp not always
  // whole.
  const int sms = course::sm_count();
  for (int run = 0; run < 2; ++run) {
    const int blocks = drawn_count(1040 + 2 * run, 2, sms + 1, "blocks, every thread locking");
    const int threads = drawn_count(1041 + 2 * run, 33, 224, "threads a block, every one locking");
    const grading03::LockOutcome outcome = grading03::every_thread_locks(blocks, threads);
    INFO(blocks << " blocks of " << threads << " threads, every thread taking the lock once");
    INFO(outcome.overlaps << " times two threads were inside at once (each caller, every lane of "
                             "a warp too, must take its own ticket and enter alone)");
    CHECK(outcome.overlaps == 0);
    INFO(
        "the plain int that every holder added 1 to is not the number of threads: holders were "
        "inside together, or one did not see another's add");
    CHECK(outcome.wrong_runs == 0);
    INFO(outcome.out_of_turn << " holders entered out of their ticket's turn");
    CHECK(outcome.out_of_turn == 0);
    INFO("next and serving must both end at the number of threads that took the lock");
    CHECK(outcome.miscounted_runs == 0);
  }
}

TEST_CASE("the ticket lock keeps every block's sum with thousands of blocks, more than fit",
          "[gpu]") {
  check_lock(drawn_count(1020, 4096, 8193, "blocks, more than fit at once"), 20);
}

TEST_CASE("past 65,536 tickets: nothing wraps at 16 bits", "[gpu]") {
  check_lock(drawn_count(1030, 65537, 8192, "blocks, more tickets than 16 bits count"), 2);
}

TEST_CASE("timing: 4096 blocks take the lock in turn", "[gpu][timing]") {
  // Run by scripts/time_answer.py beside the model answer's (TIME_FACTOR 5 in the lesson's
  // CMakeLists.txt): 4096 handoffs of the lock, each a few round trips to L2 (the holder's adds,
  // its release, the next waiter's acquiring load), about 3 microseconds: some 12 ms in all on an
  // H100. Honest variants (no sleep between looks, a sleep of up to a microsecond, a back-off that
  // grows with the distance to the turn) change a handoff by a microsecond at most, well within 5
  // times; a lock whose waiters sleep 100 microseconds between looks makes every handoff wait tens
  // of microseconds, 10 to 30 times the model answer's.
  const std::size_t n = std::size_t{1} << 20;
  const std::vector<int> values = course::random_ints<int>(n, course::test::seed(), -100, 100);
  long long expected = 0;
  for (int v : values)
    expected += v;
  const course::DeviceBuffer<int> d_values(values);
  grading03::LockOutcome outcome;
  course::test::report_time(
      [&] { outcome = grading03::locked_sums(d_values.data(), n, expected, 4096, 1); });
  CHECK(outcome.overlaps + outcome.wrong_runs + outcome.out_of_turn + outcome.miscounted_runs == 0);
}
