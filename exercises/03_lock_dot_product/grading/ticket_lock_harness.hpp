// What the tests of exercise 1 (lesson 03) call: the student's TicketLock, run by its harness
// (ticket_lock_harness.cu).
#pragma once

#include <cstddef>

namespace grading03 {

// What `runs` launches of the locked sum saw, each of `blocks` blocks of 256 threads: every block
// sums its share of the n ints at d_values, then its thread 0, holding the lock, adds that sum to
// one plain int. The lock's counters are zeroed before every run.
struct LockOutcome {
  int wrong_runs = 0;       // runs whose total was not `expected`
  int overlaps = 0;         // times a thread entered while another was inside
  int out_of_turn = 0;      // entries whose ticket was not the next in line
  int miscounted_runs = 0;  // runs that did not end with next == serving == blocks
};
LockOutcome locked_sums(const int* d_values, std::size_t n, long long expected, int blocks,
                        int runs);

}  // namespace grading03
