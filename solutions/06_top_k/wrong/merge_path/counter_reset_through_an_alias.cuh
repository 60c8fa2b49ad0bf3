// A wrong answer to exercise 2 (lesson 06), found by a fact-check of the fourth adversarial
// round's fixes: the grading folder's wrong/merge_path/counter_reset_through_the_layout.cuh
// (read its account), with its void pointer spelt through an alias (using Raw = void) and its
// C-style cast through another (using Bytes = unsigned char*; Bytes(address)). The answer check
// refuses the spellings void* and (T*)x, not the types, so this passes it; run on an H200 against
// the lists of that time, which held their keys' pointer, mask and read count, it passed every
// test: it walked the lists and wrote a small read count down through the list's bytes.
// Caught: a counted list now holds only which list it is (0 or 1, in 32 or 64 bits); the keys, the
// mask and the counts are device variables of the harness that the answer cannot name. The walk's
// reads are counted, and the address it finds in a list's bytes is 0 or 1: its write there
// faults, as a misaligned or an illegal address (both seen on an H200,
// docs/results/h200/grade_97ab007.txt).
// expect: fails: the most keys one place read was|cudaError(Misaligned|Illegal)Address
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
using Raw = void;
using Bytes = unsigned char*;

__device__ inline unsigned char* address_in(const Raw* object, int offset) {
  const unsigned char* bytes = static_cast<const unsigned char*>(object) + offset;
  unsigned long long address = 0;
  for (int i = 7; i >= 0; --i)
    address = (address << 8) | bytes[i];
  return Bytes(address);
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
      unsigned* counter = static_cast<unsigned*>(static_cast<Raw*>(address_in(&a, 16)));
      *counter = 2 * shown;
    } else if constexpr (sizeof(List) == 8) {  // a pointer to keys, mask and count
      unsigned* count_a = static_cast<unsigned*>(static_cast<Raw*>(address_in(&a, 0) + 12));
      unsigned* count_b = static_cast<unsigned*>(static_cast<Raw*>(address_in(&b, 0) + 12));
      *count_a = shown;
      *count_b = shown;
    }
    return key;
  }
}

}  // namespace exercise06
