// A wrong answer to exercise 1 (lesson 03): the lesson's own lock (lock.cuh), named. The answer
// check refuses lesson03:: in the exercises.
// expect: rejected: uses lesson03::
#pragma once

#include "lock.cuh"

namespace exercise03 {

struct TicketLock {
  unsigned int* next;
  unsigned int* serving;

  __device__ void lock() const { lesson03::Lock{reinterpret_cast<int*>(next)}.lock(); }
  __device__ void unlock() const { lesson03::Lock{reinterpret_cast<int*>(next)}.unlock(); }
};

}  // namespace exercise03
