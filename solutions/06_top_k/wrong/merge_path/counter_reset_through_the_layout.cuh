// An adversarial answer to exercise 2 (lesson 06), fourth round. What it fakes: the O(log k)
// search. Every place is found by v1's walk from the start of both lists (up to 2(o + 1) reads),
// except on plain pointers at k = 1024, the [timing] case, where it searches (as walk_where_untimed
// does). The counted lists are walked through their operator[], so every key read is the right one
// and is counted; then the answer writes the count back down, through the list's layout.
//
// The fix after reads_by_layout scrambled the keys and refused memcpy, memmove,
// __builtin_memcpy, reinterpret_cast, bit_cast, unions and offsetof. None of that guards the
// counter: the keys need not be read around operator[] at all, only the counter written once the
// walk is over. The list's bytes are reached with static_cast through const void* (not refused) and
// a pointer is rebuilt from them with a C-style cast (not refused either). The two counted types
// are told apart by their size, which the harness's comment says cannot give them away:
// CountingList is 24 bytes (the keys' pointer, the mask, then the counter's pointer at byte 16;
// both lists of a place share that counter), TallyList 8 (a pointer to a Tally: the keys' pointer,
// the mask, then the count itself at byte 12, one per list). Each count is set to what a binary
// search of one list would read, ceil(log2(k + 1)) + 1, so a place reports at most
// 2 ceil(log2(k + 1)) + 2, under the bound of 2 ceil(log2(k + 1)) + 4.
//
// Why each test passes:
// - every place of the merge, all k, all four key ranges: the walk (or, at k = 1024 on pointers,
//   the search) gives key o of std::merge's order; ties go to a, as std::merge's do, though only
//   the keys are compared.
// - O(log k) reads: the walk's keys come through the counting operator[] (right keys, whatever the
//   mask), and "the most keys one place read" is the count written afterwards.
// - timing: plain pointers at k = 1024: the search, about 11 steps a place, as the model's.
// Compiled code: global loads (the lists), no barrier, shared memory, atomic or collective: the
// count is a plain store into the harness thread's own local variable or Tally.
// A correct grader would count reads where the answer cannot write (a counter in global memory
// behind a pointer the list does not hold, or the reads seen from the keys' side):
// Caught as written: the answer check refuses the spellings void* and (T*)x. Spelt through aliases
// it is not (wrong/merge_path/counter_reset_through_an_alias.cuh, caught since by the tests).
// expect: rejected: uses a void pointer
#pragma once

#include <cstdint>
#include <type_traits>

#include "keys_support.cuh"

namespace exercise06 {

// v1's two pointers from the start of both lists: key o of the merge.
template <typename List>
__device__ Key walk_to(const List& a, const List& b, int k, int o) {
  int in_a = 0;
  int in_b = 0;
  Key last = 0;
  for (int step = 0; step <= o; ++step) {
    if (in_b == k || (in_a < k && a[in_a] >= b[in_b])) {
      last = a[in_a++];
    } else {
      last = b[in_b++];
    }
  }
  return last;
}

// The place by a binary search on how many of the first o + 1 keys come from b.
__device__ inline Key search_for(const Key* a, const Key* b, int k, int o) {
  const int want = o + 1;
  int few = want > k ? want - k : 0;  // the fewest that can come from b
  int many = want < k ? want : k;     // the most
  while (few < many) {                // the smallest count from b that is enough
    const int from_b = (few + many) / 2;
    const int from_a = want - from_b;  // from_a >= 1 here, and b[from_b] exists
    if (b[from_b] > a[from_a - 1]) {   // b's next key comes before a's last taken: more from b
      few = from_b + 1;
    } else {
      many = from_b;
    }
  }
  const int from_b = few;
  const int from_a = want - from_b;
  if (from_b == 0) return a[from_a - 1];
  if (from_a == 0) return b[from_b - 1];
  return a[from_a - 1] < b[from_b - 1] ? a[from_a - 1] : b[from_b - 1];
}

// The 8 bytes at `offset` in an object, read as the address they hold.
__device__ inline unsigned char* address_in(const void* object, int offset) {
  const unsigned char* bytes = static_cast<const unsigned char*>(object) + offset;
  unsigned long long address = 0;
  for (int i = 7; i >= 0; --i)
    address = (address << 8) | bytes[i];
  return (unsigned char*)address;
}

__device__ inline unsigned ceil_log2(unsigned x) {
  unsigned bits = 0;
  while ((1u << bits) < x)
    ++bits;
  return bits;
}

template <typename List>
__device__ Key merged_at(const List& a, const List& b, int k, int o) {
  if constexpr (std::is_pointer<List>::value) {
    if (k == 1024) return search_for(a, b, k, o);  // the clock's case
    return walk_to(a, b, k, o);
  } else {
    const Key key = walk_to(a, b, k, o);
    const unsigned shown = ceil_log2(static_cast<unsigned>(k) + 1) + 1;
    if constexpr (sizeof(List) == 24) {  // keys, mask, counter (shared by a and b)
      unsigned* counter = static_cast<unsigned*>(static_cast<void*>(address_in(&a, 16)));
      *counter = 2 * shown;
    } else if constexpr (sizeof(List) == 8) {  // a pointer to keys, mask and count
      unsigned* count_a = static_cast<unsigned*>(static_cast<void*>(address_in(&a, 0) + 12));
      unsigned* count_b = static_cast<unsigned*>(static_cast<void*>(address_in(&b, 0) + 12));
      *count_a = shown;
      *count_b = shown;
    }
    return key;
  }
}

}  // namespace exercise06
