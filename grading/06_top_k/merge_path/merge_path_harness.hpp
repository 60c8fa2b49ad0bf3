// What the tests of exercise 2 (lesson 06) call: the student's merged_at, run by its harness
// (merge_path_harness.cu).
#pragma once

#include <cstddef>
#include <cstdint>

namespace grading06 {

// The lists merged_at is handed: the keys themselves (const Key*), or one of two list types that
// count their reads, of different shapes (32 bits; 64, the size of a pointer), so that an answer
// cannot tell a counted list by its type. A counted list holds only which list it is: its keys,
// their mask and the read counts are where the answer cannot name them.
enum class ListKind { pointers, counting, tally };

// For each of `pairs` pairs of lists (a and b hold pairs * k keys, list p at p * k, each in
// descending order), one block of k threads (1 to 1024) writes key o of the merge of list p of a
// and of b to out[p * k + o], with the student's merged_at. With `reads` (not null) and a counting
// kind, every thread also writes how many keys of a and b it read to reads[p * k + o]. All device
// memory.
void merge_lists(const std::uint32_t* d_a, const std::uint32_t* d_b, int k, std::size_t pairs,
                 std::uint32_t* d_out, unsigned* d_reads = nullptr,
                 ListKind kind = ListKind::pointers);

}  // namespace grading06
