// What the tests of exercise 2 (lesson 06) call: the student's merged_at, run by its harness
// (merge_path_harness.cu).
#pragma once

#include <cstddef>
#include <cstdint>

namespace grading06 {

// For each of `pairs` pairs of lists (a and b hold pairs * k keys, list p at p * k, each in
// descending order), one block of k threads (1 to 1024) writes key o of the merge of list p of a
// and of b to out[p * k + o], with the student's merged_at. With `reads` (not null), every thread
// also writes how many keys of a and b it read to reads[p * k + o]. All device memory.
void merge_lists(const std::uint32_t* d_a, const std::uint32_t* d_b, int k, std::size_t pairs,
                 std::uint32_t* d_out, unsigned* d_reads = nullptr);

}  // namespace grading06
