// An adversarial answer to exercise 1 (lesson 06), fourth round. What it fakes: the insertion.
// There is none: a pair better than the last replaces it and the list is sorted again (a selection
// sort, about k^2 / 2 comparisons, where an insertion moves at most k - 1 pairs), which only the
// clock was to catch (resort_after_append). The clock is made blind by state kept across calls:
// report_time runs the [timing] case's call once to warm up, off the clock, then 9 times on it, on
// the very same keys. In that case's grid (256 to 271 blocks of 128 threads, 32,768 or more; the
// other tests' grids are at most 40 x 256 = 10,240 threads) and at its k = 64, each thread copies
// its list into an array in device memory after every change. A later call whose thread starts
// with the same first pair (key and index) loads the list the warm-up ended with at its first
// insert, and from then on every pair is either worse than that list's last (one comparison, then
// out) or already in it (a binary search finds it, and nothing changes): the timed calls insert
// nothing at all.
//
// Why each test passes:
// - forwards, backwards and scattered, every k and size, duplicates, all-lowest keys: grids of at
//   most 10,240 threads, so no list is ever kept or replayed; the re-sort gives the exact list (a
//   pair replaces the last only when better than it; the sort orders by key, then lower index).
//   The re-sort's cost (at most a few thousand accepted pairs a thread, 70,000 lowest keys on 32
//   threads the worst) stays far inside the watchdog's 10 s.
// - timing: the warm-up re-sorts (some 2,000 comparisons for each of about 1,000 pairs a thread,
//   a fraction of a second, off the clock) and leaves each thread's final list behind; the 9 timed
//   calls replay it, so the output the case samples afterwards (32 threads of the last call) is the
//   warm-up's, which is right. A fresh process (time_answer.py's second round) starts with the
//   array zeroed, so its warm-up records again.
// Compiled code: the rules read the insertion (students_insert and what it calls) for global and
// shared loads and stores by their names (ld.global, st.shared...). The kept lists are reached
// through a pointer read back from a volatile local, which nvcc cannot place: generic ld and st,
// which no rule names. Stores into the list (st), no atomic, barrier or collective.
// Time: the timed calls read the keys and compare each with the last of a full list, once; the
// model answer moves some 32 pairs for every key: well inside the factor of 3.
// A correct grader would time calls on keys it has not run before (or check, in the compiled
// code, every access to memory that is not the thread's own, generic ones included), so that the
// re-sort itself is on the clock:
// Caught: every timed call now gets keys of its own, and a sample of its lists is checked, so the
// replay never pays; what is left is the re-sort after each key, which the clock catches.
// expect: slow
#pragma once

#include <cstddef>
#include <cstdint>

#include "keys_support.cuh"

namespace exercise06 {

constexpr int kKeptK = 64;                // the [timing] case's k
constexpr unsigned kKeptFrom = 16384;     // threads in the grid: only the [timing] case's reach it
constexpr unsigned kKeptThreads = 36864;  // at most 288 blocks of 128

struct KeptLists {  // slot j of thread t at [j * kKeptThreads + t]
  Key keys[kKeptK * kKeptThreads];
  std::uint32_t indices[kKeptK * kKeptThreads];
  Key first_key[kKeptThreads];
  std::uint32_t first_index[kKeptThreads];
  std::uint32_t kept[kKeptThreads];  // 1 once a call has recorded this thread's list
};

__device__ KeptLists kept_lists;

// The kept lists through a pointer that nvcc cannot tell is global.
__device__ inline KeptLists* kept() {
  KeptLists* volatile hidden = &kept_lists;
  return hidden;
}

__device__ inline bool ahead(Key a, std::uint32_t ia, Key b, std::uint32_t ib) {
  return a > b || (a == b && ia < ib);
}

// Orders the list again, best first: a selection sort of all k places.
__device__ inline void sort_again(Key* keys, std::uint32_t* indices, int k) {
  for (int place = 0; place + 1 < k; ++place) {
    int best = place;
    for (int j = place + 1; j < k; ++j) {
      if (ahead(keys[j], indices[j], keys[best], indices[best])) best = j;
    }
    if (best != place) {
      const Key key = keys[place];
      const std::uint32_t index = indices[place];
      keys[place] = keys[best];
      indices[place] = indices[best];
      keys[best] = key;
      indices[best] = index;
    }
  }
}

// Whether (key, index) is in the sorted list already (only a replayed list can hold it).
__device__ inline bool already_there(const Key* keys, const std::uint32_t* indices, int k, Key key,
                                     std::uint32_t index) {
  int low = 0;
  int high = k;  // the first place whose pair is not ahead of (key, index)
  while (low < high) {
    const int mid = (low + high) / 2;
    if (ahead(keys[mid], indices[mid], key, index)) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low < k && keys[low] == key && indices[low] == index;
}

__device__ void insert_pair(Key* keys, std::uint32_t* indices, int k, Key key,
                            std::uint32_t index) {
  const unsigned threads = gridDim.x * blockDim.x;
  const unsigned me = blockIdx.x * blockDim.x + threadIdx.x;
  const bool keep = k == kKeptK && threads >= kKeptFrom && me < kKeptThreads;
  if (keep && keys[0] == kLowestKey && indices[0] == 0xFFFFFFFFu) {  // this call's first pair
    KeptLists* lists = kept();
    if (lists->kept[me] == 1 && lists->first_key[me] == key && lists->first_index[me] == index) {
      for (int j = 0; j < k; ++j) {  // the list a call on these keys ended with
        keys[j] = lists->keys[j * kKeptThreads + me];
        indices[j] = lists->indices[j * kKeptThreads + me];
      }
      return;
    }
    lists->first_key[me] = key;
    lists->first_index[me] = index;
    lists->kept[me] = 1;
  }
  if (!ahead(key, index, keys[k - 1], indices[k - 1])) return;
  if (keep && already_there(keys, indices, k, key, index)) return;  // a replayed list
  keys[k - 1] = key;
  indices[k - 1] = index;
  sort_again(keys, indices, k);
  if (keep) {
    KeptLists* lists = kept();
    for (int j = 0; j < k; ++j) {
      lists->keys[j * kKeptThreads + me] = keys[j];
      lists->indices[j * kKeptThreads + me] = indices[j];
    }
  }
}

}  // namespace exercise06
