// A probe that sees which memory a student's atomicAdd calls go to: for the histogram exercises,
// whose whole point is to count in shared memory and touch global memory only to merge.
//
// A harness includes this before the student's file. From here on, the name atomicAdd is
// grading_probed_atomic_add, however it is written: atomicAdd(address, value), (atomicAdd)(...) and
// ::atomicAdd(...) all reach the probe, since the macro at the end of this file takes no arguments
// and so replaces the name itself. The probe does the same addition, and, while it is armed, also
// counts the call as a shared-memory or a global-memory one (and a shared one that adds no whole
// count, and a global one that adds exactly 1), sums what the adds add to each 4-byte shared word
// (and to global memory), counts each thread's adds and sums the words of its shared ones, and
// marks the shared word it hit with the warp that hit it, per block. The probe's own code, above
// the macro, reaches the real function. The answer check forbids #undef, #define, inline PTX, the
// other atomic functions and the builtins behind them in these exercises, so a student's atomics
// cannot go around the probe.
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <algorithm>
#include <type_traits>

#include "atomic_counts.hpp"
#include "harness.hpp"

namespace grading {

struct AtomicProbe {
  AtomicCounts* counts = nullptr;         // null: not probing
  unsigned char* shared_words = nullptr;  // null, or kProbedSharedWords marks per block
  // Null, or kProbedSharedWords totals: what the shared adds added to each word, over all blocks.
  unsigned long long* word_totals = nullptr;
  // Null, or two counts per thread of the grid: its shared adds, then its global adds.
  unsigned* thread_adds = nullptr;
  // Null, or two sums per thread of the grid over its shared adds: of the words, and of their
  // squares.
  unsigned long long* thread_words = nullptr;
};

// The calling thread's place in its block.
__device__ inline unsigned thread_in_block() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}

// The warp of the calling thread within its block (0 to 31).
__device__ inline unsigned char warp_in_block() {
  return static_cast<unsigned char>(thread_in_block() / 32);
}

__device__ AtomicProbe g_atomic_probe;

// Whether an add adds a count: a whole number of 1 or more (0, a fraction such as 2^-60 added to a
// float word, or a negative number added to a signed counter counts nothing: padding). Added to an
// unsigned counter, -1 arrives as its largest value, which this takes for a count; the word totals,
// summed in 64 bits, see it.
template <typename T>
__device__ bool is_a_count(T added) {
  if constexpr (std::is_floating_point<T>::value) {
    return added >= static_cast<T>(1) && added == static_cast<T>(static_cast<long long>(added));
  } else {
    return added > static_cast<T>(0);
  }
}

template <typename T, typename U>
__device__ T probed_atomic_add(T* address, U value) {
  // What the add adds: the value converted to the counter's type (1ull << 32 adds 0 to a 32-bit
  // counter, 1.5 adds 1 to an integer one).
  const T added = static_cast<T>(value);
#ifndef GRADING_SASS
  const AtomicProbe probe = g_atomic_probe;
  if (probe.counts != nullptr) {
    // The counts are added once per group of lanes that call together (a warp's leader adds the
    // group's), so that a probed run of billions of adds is not held up by one global counter.
    const cooperative_groups::coalesced_group lanes = cooperative_groups::coalesced_threads();
    const bool shared = __isShared(address);
    if (probe.thread_adds != nullptr) {
      // Each thread counts its own adds, and sums the shared words it adds to: no other thread
      // writes its entries.
      const std::size_t me =
          std::size_t{blockIdx.x} * (blockDim.x * blockDim.y * blockDim.z) + thread_in_block();
      ++probe.thread_adds[2 * me + (shared ? 0 : 1)];
      if (shared && probe.thread_words != nullptr) {
        const unsigned long long w = __cvta_generic_to_shared(address) / 4;
        probe.thread_words[2 * me] += w;
        probe.thread_words[2 * me + 1] += w * w;
      }
    }
    const unsigned shared_lanes = lanes.ballot(shared);
    const unsigned zero_lanes = lanes.ballot(shared && !is_a_count(added));
    const unsigned global_one_lanes = lanes.ballot(!shared && added == static_cast<T>(1));
    if (lanes.thread_rank() == 0) {
      const unsigned long long in_shared = __popc(shared_lanes);
      const unsigned long long in_global = lanes.size() - in_shared;
      if (in_shared != 0) (atomicAdd)(&probe.counts->shared_adds, in_shared);
      if (zero_lanes != 0) (atomicAdd)(&probe.counts->shared_zeros, 0ull + __popc(zero_lanes));
      if (in_global != 0) (atomicAdd)(&probe.counts->global_adds, in_global);
      if (global_one_lanes != 0)
        (atomicAdd)(&probe.counts->global_ones, 0ull + __popc(global_one_lanes));
    }
    const auto word =
        shared ? static_cast<unsigned>(__cvta_generic_to_shared(address) / 4) : kProbedSharedWords;
    if (probe.word_totals != nullptr) {
      // The lanes that add to one word (global memory counts as one word past the shared ones),
      // together: their leader adds their sum.
      const cooperative_groups::coalesced_group same =
          cooperative_groups::labeled_partition(lanes, word);
      const unsigned long long sum =
          cooperative_groups::reduce(same, static_cast<unsigned long long>(added),
                                     cooperative_groups::plus<unsigned long long>());
      if (same.thread_rank() == 0) {
        if (word < kProbedSharedWords) {
          (atomicAdd)(&probe.word_totals[word], sum);
        } else {
          (atomicAdd)(&probe.counts->global_added, sum);
        }
      }
    }
    if (shared) {
      if (probe.shared_words != nullptr && word < kProbedSharedWords) {
        // Not atomic: two warps that mark a fresh word at the same moment may both see it fresh,
        // but a word that warps share is added to again and again, and a later add sees the other
        // warp's mark.
        unsigned char& mark =
            probe.shared_words[blockIdx.x * static_cast<std::size_t>(kProbedSharedWords) + word];
        const unsigned char me = warp_in_block() + 1;
        const unsigned char seen = mark;
        if (seen == 0) {
          mark = me;
        } else if (seen != me) {
          mark = kWordOfManyWarps;
        }
      }
    }
  }
#endif
  return (atomicAdd)(address, added);
}

// Arms the probe for the next launches (what it writes, in device memory: null leaves it out), or
// disarms it (all null).
inline void arm_atomic_probe(AtomicCounts* counts, unsigned char* shared_words,
                             unsigned long long* word_totals, unsigned* thread_adds,
                             unsigned long long* thread_words) {
  const AtomicProbe probe{counts, shared_words, word_totals, thread_adds, thread_words};
  CUDA_CHECK(cudaMemcpyToSymbol(g_atomic_probe, &probe, sizeof probe));
}

// What a probe run records beside its counts.
enum class SeeWords {
  totals,     // what the shared adds added to each shared word, summed over the blocks
  warps_too,  // that, and which shared words each block added to, and which more than one warp did
};

// Runs launch() (a kernel of `blocks` blocks of `threads` threads, a one-dimensional grid) once
// with the probe armed, under the watchdog, and reports what its atomics did, and what `see` asks
// for besides.
template <typename Launch>
AtomicReport probe_atomics(int blocks, int threads, SeeWords see, Launch&& launch) {
  course::DeviceBuffer<AtomicCounts> counts(1);
  counts.fill_bytes(0);
  const bool marks = see == SeeWords::warps_too;
  course::DeviceBuffer<unsigned char> words(marks ? blocks * std::size_t{kProbedSharedWords} : 0);
  if (marks) words.fill_bytes(0);
  course::DeviceBuffer<unsigned long long> totals(kProbedSharedWords);
  totals.fill_bytes(0);
  course::DeviceBuffer<unsigned> thread_adds(2 * std::size_t(blocks) * std::max(threads, 0));
  thread_adds.fill_bytes(0);
  course::DeviceBuffer<unsigned long long> thread_words(2 * std::size_t(blocks) *
                                                        std::max(threads, 0));
  thread_words.fill_bytes(0);
  arm_atomic_probe(counts.data(), marks ? words.data() : nullptr, totals.data(), thread_adds.data(),
                   thread_words.data());
  watched(launch);
  arm_atomic_probe(nullptr, nullptr, nullptr, nullptr, nullptr);
  AtomicReport report;
  report.counts = counts.download()[0];
  report.blocks = blocks;
  report.threads = threads;
  const std::vector<unsigned> adds = thread_adds.download();
  for (std::size_t i = 0; i < adds.size(); i += 2) {
    report.most_shared_adds = std::max(report.most_shared_adds, adds[i]);
    report.most_global_adds = std::max(report.most_global_adds, adds[i + 1]);
  }
  if (marks) {
    const std::vector<unsigned char> hit = words.download();
    report.shared_words_hit.assign(blocks, 0);
    report.words_of_many_warps.assign(blocks, 0);
    report.warps_that_added.assign(blocks, 0);
    for (std::size_t i = 0; i < hit.size(); ++i) {
      const std::size_t block = i / kProbedSharedWords;
      report.shared_words_hit[block] += hit[i] != 0;
      report.words_of_many_warps[block] += hit[i] == kWordOfManyWarps;
      if (hit[i] != 0 && hit[i] != kWordOfManyWarps)
        report.warps_that_added[block] |= 1u << (hit[i] - 1);
    }
  }
  report.word_totals = totals.download();
  report.thread_words = thread_words.download();
  return report;
}

}  // namespace grading

// In the global namespace, so that ::atomicAdd(...) in an answer still names a function.
template <typename T, typename U>
__device__ T grading_probed_atomic_add(T* address, U value) {
  return ::grading::probed_atomic_add(address, value);
}

// The macro is object-like on purpose: a function-like one would leave (atomicAdd)(...) unprobed.
// It is the same in the build that the compiled-code check reads (GRADING_SASS,
// scripts/check_compiled.py), so that an answer's code means the same in both builds (whether an
// atomicAdd call compiles, which code a template picks): there, probed_atomic_add counts nothing,
// and the answer's atomics are its own, not mixed with the probe's counting ones.
#define atomicAdd grading_probed_atomic_add
