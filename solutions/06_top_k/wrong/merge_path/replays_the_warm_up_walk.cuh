// A wrong answer to exercise 2 (lesson 06), sixth adversarial round (helper B). What it fakes: the
// O(log k) search, everywhere the keys are plain pointers. The search runs only on the counted
// lists, where the reads are counted. On plain pointers (every place the tests check against
// std::merge, and the timed merge) it walks both lists from the start, v1's two pointers, up to
// 2(o + 1) reads a place. The timed case is made blind by state kept across calls, as 06.1's
// replays_the_warm_up did before 06.1's timed calls got keys of their own: here they have
// not. report_time runs the [timing] call once off the clock to warm up, then 9 times on it, on
// the same d_a, d_b and d_out with the same keys. In a launch of that case's shape (k = 1024,
// 65,536 to 69,631 blocks, which no other test launches), each thread keeps the key its walk
// found in a device array (kept_keys, one place per thread of the largest such launch: 285 MB),
// with a tag of its lists (their addresses and six of their keys, in 8 bits: kept_tags, 71 MB). A
// later call whose thread finds its tag there returns the kept key: the 9 timed calls walk
// nothing and search nothing.
//
// Why each test passes:
// - every place of the merge (plain pointers, every k, all four key ranges): the walk gives key o
//   of the merge, ties to a, as std::merge's order does. None of these launches has the timed
//   shape (at most 1000 pairs), so nothing is kept or replayed.
// - O(log k) reads (both kinds of counted list): a counted list is not a pointer
//   (std::is_pointer), so it gets the model's binary search through operator[]: at most
//   2 ceil(log2(k + 1)) + 2 reads a place, with the right keys whatever the mask.
// - timing (plain pointers, k = 1024, 65,536 + a drawn 0 to 4,095 pairs): the warm-up, off the
//   clock, walks (about 512 steps a place, some tens of ms in all, far inside the watchdog's 10 s)
//   and keeps every key; each timed call reads 6 keys of its pair (the same for the whole block,
//   broadcast), one tag byte and one kept key a thread, and returns it, which the harness stores:
//   less than the model's search. The 16 sampled pairs of the last call are the warm-up's walk,
//   which is right. time_answer.py's second round is a fresh process: its arrays start at zero
//   (no tag is 0), so its warm-up walks and keeps again.
// Compiled code: global loads (required) and stores; no barrier, shared memory, atomic or warp
// collective.
// Time: the timed calls make fewer reads than the model's; the walk is never on the clock.
// A correct grader would give each timed call lists of its own (raised by a constant off the
// clock, as 06.1's [timing] case does) and check a sample of every call, so that whatever the
// answer does is what the clock sees: then the walk is timed, and is 10 times the model's or more.
// Caught: every timed call now merges lists of its own, and a sample of each is checked: the 8-bit
// tags of the warm-up's lists match those of a new call's in about 1 block in 255, whose stale keys
// a sampled pair may catch (the timed run fails); elsewhere the walk runs on the clock (slow).
// expect: slow
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "keys_support.cuh"  // Key (grading/)

namespace exercise06 {

constexpr unsigned kKeptBlocks = 69632;  // the [timing] case's pairs: 65,536 + 0 to 4,095
constexpr int kKeptK = 1024;             // and its k

__device__ Key kept_keys[kKeptBlocks * kKeptK];            // one place per thread
__device__ unsigned char kept_tags[kKeptBlocks * kKeptK];  // 0: nothing kept

// v1's two pointers: key o of the merge of a[0, k) and b[0, k), walked from the start of both.
__device__ inline Key walked_at(const Key* a, const Key* b, int k, int o) {
  int i = 0;
  int j = 0;
  Key last = 0;
  for (int step = 0; step <= o; ++step) {
    if (j >= k || (i < k && a[i] >= b[j])) {
      last = a[i++];
    } else {
      last = b[j++];
    }
  }
  return last;
}

// The lists of this block, in 8 bits (1 to 255): where they are, and six of their keys.
__device__ inline unsigned char tag_of(const Key* a, const Key* b, int k) {
  std::uint64_t h = static_cast<std::uint64_t>(__cvta_generic_to_global(a)) * 0x9E3779B97F4A7C15ull;
  h = (h ^ static_cast<std::uint64_t>(__cvta_generic_to_global(b))) * 0xC2B2AE3D27D4EB4Full;
  const Key sample[6] = {a[0], b[0], a[k / 2], b[k / 2], a[k - 1], b[k - 1]};
  for (int s = 0; s < 6; ++s)
    h = (h ^ sample[s]) * 0x100000001B3ull;
  h ^= gridDim.x;
  return static_cast<unsigned char>(1 + (h >> 32) % 255);
}

// Key o (0 <= o < k) of the merge of a[0, k) and b[0, k), both in descending order.
template <typename List>
__device__ Key merged_at(const List& a, const List& b, int k, int o) {
  if constexpr (std::is_pointer<List>::value) {
    if (k == kKeptK && gridDim.x >= 65536 && gridDim.x <= kKeptBlocks) {
      const std::size_t me = static_cast<std::size_t>(blockIdx.x) * kKeptK + o;
      const unsigned char tag = tag_of(a, b, k);
      if (kept_tags[me] == tag) return kept_keys[me];  // the warm-up's walk, kept
      const Key key = walked_at(a, b, k, o);
      kept_keys[me] = key;
      kept_tags[me] = tag;
      return key;
    }
    return walked_at(a, b, k, o);
  } else {
    // A list that counts its reads: the search, where the first o + 1 keys split between the two.
    const int taken = o + 1;
    int low = taken > k ? taken - k : 0;
    int high = taken < k ? taken : k;
    while (low < high) {
      const int i = (low + high) / 2;
      if (a[i] >= b[taken - 1 - i]) {
        low = i + 1;
      } else {
        high = i;
      }
    }
    const int from_a = low;
    const int from_b = taken - low;
    if (from_a == 0) return b[from_b - 1];
    if (from_b == 0) return a[from_a - 1];
    const Key last_a = a[from_a - 1];
    const Key last_b = b[from_b - 1];
    return last_a < last_b ? last_a : last_b;
  }
}

}  // namespace exercise06
