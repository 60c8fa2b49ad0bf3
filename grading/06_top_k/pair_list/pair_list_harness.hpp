// What the tests of exercise 1 (lesson 06) call: the student's insert_pair, run by its harness
// (pair_list_harness.cu).
#pragma once

#include <cstddef>
#include <cstdint>

namespace grading06 {

constexpr int kMaxK = 64;

// The order in which a thread visits its keys: first to last, last to first, or scattered (a
// stride through them that differs from thread to thread, so equal keys arrive in no order).
enum class Order { forwards, backwards, scattered };

// blocks x threads threads: thread t reads the keys t, t + T, t + 2T, ... of d_keys (T threads in
// all), in the given order, inserts each with its index into a list of k (1 to 64) pairs that
// starts full of (0, 0xFFFFFFFF), and writes its list to d_keys_out[t * k] and
// d_indices_out[t * k] (device memory).
void pair_lists(const std::uint32_t* d_keys, std::size_t n, int k, int blocks, int threads,
                Order order, std::uint32_t* d_keys_out, std::uint32_t* d_indices_out);

}  // namespace grading06
