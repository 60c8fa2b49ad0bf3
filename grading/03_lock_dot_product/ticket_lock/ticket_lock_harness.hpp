// What the tests of exercise 1 (lesson 03) call: the student's TicketLock, run by its harness
// (ticket_lock_harness.cu).
#pragma once

#include <cstddef>
#include <vector>

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

// What `blocks` blocks of `threads` threads saw when every one of their threads takes the lock
// once (so do the lanes of a warp, together), adds 1 to one plain int inside, and lets go: the
// same counts as locked_sums', one run, the expected total being blocks * threads.
LockOutcome every_thread_locks(int blocks, int threads);

// What one run of the queue saw. Block b (its thread `caller`, of `threads`) comes to the lock as
// the arrival[b]-th (from 0), and only after the one before it has taken its ticket: it waits until
// that one has said "now I call lock()" and `next` has moved on from what it was then. The first to
// enter holds the lock until the last has taken its ticket, so every other waits in the queue. A
// first come, first served lock lets them in in the order they came; every block is resident at
// once (the tests keep arrival.size() to a few blocks per SM, of at most 256 threads).
struct QueueOutcome {
  int out_of_order = 0;     // holders that entered at another place in line than they came
  int overlaps = 0;         // times a thread entered while another was inside
  bool miscounted = false;  // next or serving did not end at the number of blocks
};
QueueOutcome queued_entries(const std::vector<int>& arrival, int threads, int caller);

}  // namespace grading03
