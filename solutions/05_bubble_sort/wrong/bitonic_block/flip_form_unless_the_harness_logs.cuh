// A wrong answer to exercise 4 (lesson 05), sixth adversarial round (helper B). What it fakes:
// Batcher's form of the network. It makes v4's flip form (the first step of each stage compares
// mirror images, every compare-and-swap sends the smaller value to the lower place), which sorts
// as well and as fast, in every launch whose compare-and-swaps are not logged, and Batcher's
// network, step by step, in every launch that is. It tells them apart through the harness's own
// code: the harness includes this file before its kernel, so a macro defined at the end of it
// rewrites that kernel. Only a logged launch (bitonic_blocks_network, with shared_base set) runs
// the kernel's line *shared_base = static_cast<unsigned>(__cvta_generic_to_shared(s)), in thread 0
// before the barrier that precedes the network; the macro turns that call into
// exercise05::note_logged(s), which marks a __shared__ word of the block and returns what
// __cvta_generic_to_shared would (the probe's own calls, in the support header, come before the
// macro and are untouched). After the harness's barrier every thread reads the mark; the network
// clears it at its end. In launches that are not logged (every output test and the timed one)
// nothing marks it. The answer check refuses #undef, ## and names, not #define: nothing stops a
// macro from reaching the code that follows it.
//
// Why each test passes:
// - every input at every size up to 8192, and the five repeated runs: not logged, so the flip
//   form, which sorts (it is the lesson's v4, with order_pair, so NaNs and signed zeros land in
//   totalOrder's places).
// - "Batcher's network, pair for pair" (one block, every power of two from 2 to 8192) and "every
//   block of a launch of many" (a drawn size and block count, and 8192 with the timed count):
//   every block of those launches has shared_base set, so thread 0 marks the block before the
//   harness's barrier and every block makes Batcher's network, a barrier after each step: the
//   logged block's calls are exactly the network's pairs and directions, each step's before the
//   next's, and its output sorted.
// - timing (about 8,400 blocks of 8192, not logged): the flip form, the same 91 steps of 4,096
//   compare-and-swaps and the same barriers as the model: the same time (flip_form_on_big_grids
//   measured it so); the sampled blocks are sorted.
// A mark left in shared memory by an earlier launch can only make a block take Batcher's form
// (still sorted); the mark is cleared after a barrier at the end of every network, so a later
// block on the same SM starts without it.
// Compiled code: the rules read students_network and what it calls: bar.sync after every step,
// shared loads and stores (the mark, and the floats through the generic pointer), no global
// memory, atomic or warp collective; note_logged, called from the harness's kernel, is one
// shared store and the address conversion.
// Time (factor 3): the model's network in another order of pairs, as fast.
// A correct grader would compile the harness so that the answer's macros cannot reach it (the
// answer in a translation unit of its own, the answer check refusing #define, or the harness
// checking after the include that none of the names it uses is a macro), or log the network in a
// launch that runs the same kernel code as the others.
// Caught: the answer check refuses #define.
// expect: rejected: uses #define (a macro would rewrite the harness compiled after it)
#pragma once

#include <cstddef>

#include "bitonic_block_support.cuh"  // order_pair (grading/)

namespace exercise05 {

// Set by the harness's thread 0 in a launch whose network is logged (see the macro at the end).
__shared__ unsigned network_logged;
constexpr unsigned kLoggedMark = 0x4C6F6767u;

// What the harness's kernel calls instead of __cvta_generic_to_shared(s), before its barrier.
__device__ inline std::size_t note_logged(const float* s) {
  network_logged = kLoggedMark;
  return __cvta_generic_to_shared(s);
}

// Sorts s[0, size) in the course's order; size is a power of two, up to 8192; every thread of the
// block calls this.
__device__ void bitonic_sort_shared(float* s, unsigned size) {
  const bool logged = network_logged == kLoggedMark;
  for (unsigned k = 2; k <= size; k *= 2) {
    for (unsigned j = k / 2; j > 0; j /= 2) {
      for (unsigned q = threadIdx.x; q < size / 2; q += blockDim.x) {
        const unsigned x = ((q & ~(j - 1)) << 1) | (q & (j - 1));  // bit j of x is 0
        if (logged) {  // Batcher's form: blocks of k places up and down in turn
          if ((x & k) == 0) {
            order_pair(s[x], s[x + j]);
          } else {
            order_pair(s[x + j], s[x]);
          }
        } else if (j == k / 2) {  // the flip: x against its mirror image in its block of k
          order_pair(s[x], s[x ^ (k - 1)]);
        } else {
          order_pair(s[x], s[x + j]);
        }
      }
      __syncthreads();
    }
  }
  __syncthreads();  // every thread has read the mark
  if (threadIdx.x == 0) network_logged = 0;
}

}  // namespace exercise05

// From here on (the harness's kernel), the shared array's base is asked of note_logged.
#define __cvta_generic_to_shared(p) ::exercise05::note_logged(p)
