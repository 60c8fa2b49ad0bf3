// Grades exercise 1 of lesson 03: exercise03::TicketLock (ticket_lock.cuh). Many blocks add their
// sums into one plain int under the lock, 20 times over, with fresh random values each run of the
// tests (the seed is printed; COURSE_TEST_SEED repeats it). A lock without acquire and release
// ordering loses updates once an SM runs several blocks; a lock that lets two holders in at once is
// caught in the act; a lock that is not a ticket lock lets holders in out of turn. A lock that is
// never released is stopped by the watchdog within seconds.
#include <vector>

#include "inputs.hpp"
#include "launch.hpp"
#include "testing.hpp"
#include "ticket_lock_harness.hpp"

namespace {

void check_lock(int blocks) {
  const std::size_t n = std::size_t{1} << 20;
  const std::vector<int> values = course::random_ints<int>(n, course::test::seed(), -100, 100);
  long long expected = 0;
  for (int v : values)
    expected += v;
  const course::DeviceBuffer<int> d_values(values);
  const int runs = 20;
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
  check_lock(8 * course::sm_count());
}

TEST_CASE("the ticket lock keeps every block's sum with 8192 blocks, more than fit", "[gpu]") {
  check_lock(8192);
}
