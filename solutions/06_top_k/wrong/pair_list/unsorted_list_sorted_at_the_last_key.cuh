// A wrong answer to exercise 1 (lesson 06), sixth adversarial round (helper B). What it fakes: the
// insertion. No pair ever moves down a place while keys arrive: the list is kept unsorted, with
// its worst pair at place k - 1; a pair better than that one takes its place, and a scan of the k
// places (compares only) finds the new worst and swaps it to k - 1. The list is put in order once,
// by a selection sort, at the thread's last key. Knowing which key is the last takes something the
// statement never gives insert_pair: the number of keys the thread will insert. The harness
// includes this file before its own code, so a macro defined at the end of it rewrites the
// harness's kernel: its line list_keys[j] = exercise06::kLowestKey becomes list_keys[j] =
// exercise06::empty_slot_noting(n, j), n being pair_lists_kernel's own parameter. That call (at
// j = 0) works out the thread's count of keys, (n - 1 - thread) / threads + 1, as the harness's
// grid-stride loop does, and leaves it in a device array (one word per thread of the grid); each
// insert_pair counts it down, and the one that reaches 0 sorts. The empty slots still get
// kLowestKey (taken into kEmptyKey before the macro is defined). The answer check refuses #undef,
// ## and names, not #define: nothing stops a macro from reaching the code that follows it.
//
// Why each test passes:
// - forwards, backwards and scattered, every k, size, grid and distribution, duplicates, all-lowest
//   keys: the list always holds the k best pairs seen so far (a pair better than the worst
//   replaces it; the worst of the k is found again after each change), and the last insert_pair
//   of the thread, whichever key it brings and whether or not that key gets in, sorts them best
//   first by key, then lower index; the empty slots (kLowestKey, 0xFFFFFFFF) are the worst pairs
//   and sort last. The order the keys come in changes nothing. Grids of at most 40 x 256 threads
//   in these cases, 271 x 128 in the timed one: the array has 65,536 places (a thread past them
//   would insert as the model does; none is).
// - timing (k = 64, keys that each beat the list's tail): per key, one compare with the tail, two
//   stores, a scan of 63 places (two loads and a compare each) and a swap, where the model moves
//   about 32 pairs (two loads and two stores each); the count word is one load and one store a
//   key, in L1; the final sort (about 2,000 compares) runs once per thread of about 1,000 keys.
//   Each timed call has keys of its own and is sampled: the lists are right, the work is done.
// Compiled code: the rules read students_insert and what it calls: stores into the list (st),
// and the count word through a pointer read back from a volatile local, which nvcc cannot place
// (generic ld and st, as replays_the_warm_up's kept lists); no ld.global, st.global,
// shared memory, atomic, barrier or collective. empty_slot_noting is inlined into the harness's
// kernel, which the rules leave out (and it uses the same generic pointer).
// Time (factor 3): estimated at 1 to 1.5 times the model's (about as many loads and stores a key);
// not measured (no GPU for this round's helpers).
// A correct grader would compile the harness so that the answer's macros cannot reach it (the
// answer in a translation unit of its own, the answer check refusing #define, or the harness
// checking after the include that none of its names is a macro), and could check a thread's list
// after a drawn number of its keys, not only at the end.
// Caught: the answer check refuses #define.
// expect: rejected: uses #define (a macro would rewrite the harness compiled after it)
#pragma once

#include <cstddef>
#include <cstdint>

#include "keys_support.cuh"  // Key, kLowestKey (grading/)

namespace exercise06 {

constexpr Key kEmptyKey = kLowestKey;  // an empty slot's key, taken before the macro below
constexpr std::size_t kCountedThreads = std::size_t{1} << 16;

__device__ std::uint32_t keys_to_come[kCountedThreads];  // per thread of the grid

// The counts through a pointer that nvcc cannot tell is global.
__device__ inline std::uint32_t* counts_to_come() {
  std::uint32_t* volatile hidden = keys_to_come;
  return hidden;
}

__device__ inline std::size_t this_thread() {
  return blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
}

// Whether (key a, index ia) is better than (key b, index ib).
__device__ inline bool ahead(Key a, std::uint32_t ia, Key b, std::uint32_t ib) {
  return a > b || (a == b && ia < ib);
}

// What the harness's kernel puts in slot j of an empty list (through the macro at the end); at
// j = 0 it also notes how many keys this thread of the harness's grid-stride loop will insert.
__device__ __forceinline__ Key empty_slot_noting(std::size_t n, int j) {
  if (j == 0) {
    const std::size_t thread = this_thread();
    const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    if (thread < kCountedThreads) {
      counts_to_come()[thread] =
          thread < n ? static_cast<std::uint32_t>((n - 1 - thread) / threads + 1) : 0u;
    }
  }
  return kEmptyKey;
}

// Best first: a selection sort of the k places.
__device__ inline void put_in_order(Key* keys, std::uint32_t* indices, int k) {
  for (int place = 0; place + 1 < k; ++place) {
    int best = place;
    for (int p = place + 1; p < k; ++p) {
      if (ahead(keys[p], indices[p], keys[best], indices[best])) best = p;
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

// keys[0, k) and indices[0, k) hold the k best (key, index) pairs seen so far; best first once the
// thread's last key is in.
__device__ void insert_pair(Key* keys, std::uint32_t* indices, int k, Key key,
                            std::uint32_t index) {
  const std::size_t thread = this_thread();
  if (thread >= kCountedThreads) {  // past the counts (no test's grid): the plain insertion
    if (!ahead(key, index, keys[k - 1], indices[k - 1])) return;
    int i = k - 1;
    for (; i > 0 && ahead(key, index, keys[i - 1], indices[i - 1]); --i) {
      keys[i] = keys[i - 1];
      indices[i] = indices[i - 1];
    }
    keys[i] = key;
    indices[i] = index;
    return;
  }
  std::uint32_t* const to_come = counts_to_come();
  const std::uint32_t left = to_come[thread] - 1u;
  to_come[thread] = left;
  if (ahead(key, index, keys[k - 1], indices[k - 1])) {
    // The worst pair (at k - 1) goes; the new worst of the k is found and put at k - 1.
    int worst = k - 1;
    Key worst_key = key;
    std::uint32_t worst_index = index;
    for (int p = 0; p + 1 < k; ++p) {
      if (ahead(worst_key, worst_index, keys[p], indices[p])) {
        worst = p;
        worst_key = keys[p];
        worst_index = indices[p];
      }
    }
    if (worst != k - 1) {
      keys[worst] = key;
      indices[worst] = index;
    }
    keys[k - 1] = worst_key;
    indices[k - 1] = worst_index;
  }
  if (left == 0) put_in_order(keys, indices, k);  // the thread's last key
}

}  // namespace exercise06

// From here on (the harness's kernel), an empty slot's key is asked of empty_slot_noting, with the
// kernel's own n.
#define kLowestKey empty_slot_noting(n, j)
