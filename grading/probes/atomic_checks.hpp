// What the tests of the histogram exercises (lesson 01) ask of every probed run, whatever else
// each exercise asks: one shared-memory add per counted value, none of them padding, global adds
// only to merge (at most one per bin and block), and the work shared by the threads: no thread
// adds more than its grid-stride share of the values, nor merges more than its share of the bins.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>
#include "../../common/testing.hpp"

#include "atomic_counts.hpp"

namespace grading {

// `counted`: the values the run must count (`what` names them in the messages), of the `read`
// values the grid reads; `bins`: the bins each block merges.
inline void check_shared_adds(const AtomicReport& report, unsigned long long counted,
                              const char* what, unsigned long long read, unsigned long long bins) {
  INFO("shared-memory atomicAdd calls: " << report.counts.shared_adds << "; " << what << ": "
                                         << counted);
  CHECK(report.counts.shared_adds == counted);
  INFO("shared-memory atomicAdd calls that added 0, or no whole count (padding, not counting): "
       << report.counts.shared_zeros);
  CHECK(report.counts.shared_zeros == 0);
  const unsigned long long merges = static_cast<unsigned long long>(report.blocks) * bins;
  INFO("global atomicAdd calls: " << report.counts.global_adds
                                  << "; at most one per bin and block: " << merges);
  CHECK(report.counts.global_adds <= merges);
  // A thread's share: a grid-stride loop gives each thread read / (grid's threads) values, rounded
  // up; 16 more allow for a vector load's bytes. Merging in a loop that steps by the block's size,
  // each thread merges bins / (block's threads) bins, rounded up.
  const unsigned long long grid_threads =
      static_cast<unsigned long long>(report.blocks) * report.threads;
  const unsigned long long share = (read + grid_threads - 1) / grid_threads + 16;
  INFO("the most shared-memory atomicAdd calls one thread made: "
       << report.most_shared_adds << "; a thread's share of the " << read << " values read by "
       << grid_threads << " threads, plus 16: " << share << " (each thread counts what it reads)");
  CHECK(report.most_shared_adds <= share);
  const unsigned long long merge_share = (bins + report.threads - 1) / report.threads;
  INFO("the most global atomicAdd calls one thread made: "
       << report.most_global_adds << "; a thread's share of the " << bins << " bins merged by "
       << report.threads << " threads: " << merge_share << " (the block merges together)");
  CHECK(report.most_global_adds <= merge_share);
}

// Per thread of a grid of `threads` threads, the two sums check_thread_words compares: of the
// words its adds go to, and of their squares (thread t's at 2 t and 2 t + 1).
class ThreadWordSums {
 public:
  explicit ThreadWordSums(std::size_t threads) : sums_(2 * threads, 0) {}

  // `times` adds (a negative number takes adds back) of thread t to a word.
  void add(std::size_t thread, unsigned long long word, long long times = 1) {
    const auto k = static_cast<unsigned long long>(times);
    sums_[2 * thread] += k * word;
    sums_[2 * thread + 1] += k * word * word;
  }

  // The adds of values[0, n) as a grid-stride loop deals them (value i to thread i mod threads):
  // each value v to word_of(thread, v), where that is not kUncounted.
  static constexpr unsigned long long kUncounted = ~0ull;
  template <typename V, typename WordOf>
  void add_grid_stride(const V* values, std::size_t n, WordOf word_of) {
    const std::size_t threads = sums_.size() / 2;
    std::size_t t = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const unsigned long long word = word_of(t, values[i]);
      if (word != kUncounted) add(t, word);
      if (++t == threads) t = 0;
    }
  }

  const std::vector<unsigned long long>& sums() const { return sums_; }

 private:
  std::vector<unsigned long long> sums_;
};

// Whether each thread's shared adds count the values it read itself: its sums of the words it
// added to, and of their squares, against `expected` (the same two sums, per thread of the grid,
// over the counters of the values its grid-stride loop reads). A count made some other way and
// replayed through adds (from a histogram thread 0 made, say) lands each add by bin, not by which
// thread read the value, and fails.
inline void check_thread_words(const AtomicReport& report,
                               const std::vector<unsigned long long>& expected) {
  std::size_t off = 0;
  std::size_t first = 0;
  for (std::size_t i = 0; i < expected.size() / 2; ++i) {
    const bool same = 2 * i + 1 < report.thread_words.size() &&
                      report.thread_words[2 * i] == expected[2 * i] &&
                      report.thread_words[2 * i + 1] == expected[2 * i + 1];
    if (!same && off++ == 0) first = i;
  }
  INFO("the bins of each thread's shared adds are those of the values it read: "
       << off << " threads of " << expected.size() / 2 << " added to other counters (the first: "
       << "thread " << first % std::max(report.threads, 1) << " of block "
       << first / std::max(report.threads, 1)
       << "); each thread counts what its grid-stride loop reads, one value a step");
  CHECK(off == 0);
}

}  // namespace grading
