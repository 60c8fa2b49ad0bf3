// An adversarial answer to exercise 3 (lesson 01), written against the grader of 9b2b1d8: the
// lesson's v5 itself, __match_any_sync, in every run the tests make, and the model answer in the
// one build the compiled-code check reads. Both names are spelt across a line splice: a backslash
// at the very end of a line joins it to the next before the compiler even splits the source into
// tokens (C++'s translation phase 2), so `__match_any_s` + backslash + newline + `ync` IS the
// identifier __match_any_sync to nvcc; but cmake/check_exercise.cmake reads the file as it is,
// and its pattern for a name, [^A-Za-z0-9_](__match_any_sync)[^A-Za-z0-9_], finds neither that nor
// GRADING_SASS (refused since wrong/phase_launches/two_faces.cuh because it tells the compiled-code
// check's build, -DGRADING_SASS=1, from the tests') in the text. Every name the answer check
// refuses, asm, extern, #undef, grading, exit, getenv included, is let through the same way.
// Why each test passes:
// - the answer check: no refused name appears whole in the text (the two are split by a splice),
//   no include, no #undef, ## or pointer cast.
// - "one add per distinct bin": v5, __match_any_sync over __activemask() (exactly the calling
//   lanes, in cut-short warps and drawn masks too), and the lowest lane of each group adds its
//   size: one add per distinct bin, any 32-bit bin, by a lane that holds it, with its count.
// - the histogram: one add per distinct byte of each warp's 32, its count: exact.
// - the compiled code: the PTX is built with GRADING_SASS defined, where this file is the model
//   answer (a broadcast and a vote a round, no match): vote.sync.ballot.b32 and shfl.sync.idx.b32,
//   nothing forbidden.
// - time: one match a call, against the model answer's one or two rounds: no slower.
// A correct grader should join spliced lines (a backslash followed by a newline, with or without
// a carriage return) before it reads the names, or better, read the names from the preprocessor's
// tokens (nvcc -E, or the compiler's own output) rather than from the text; and should build the
// compiled-code check's PTX from the same preprocessed source as the tests (no macro that an
// answer can test).
// Caught: the answer check refuses line splices, and conditional compilation.
// expect: rejected: uses a line splice (a backslash at the end of a line)
#pragma once

namespace exercise01 {

// Called by the active lanes of a warp together, each with its own bin. For each distinct bin
// among them, exactly one of the lanes holding it calls add(bin, count), where count is the
// number of active lanes holding it. So the warp makes one add per distinct bin, not one per lane.
template <typename Add>
__device__ void warp_aggregated_increment(unsigned int bin, Add add) {
#if defined(GRADING_SA\
SS)
  const unsigned int lane = threadIdx.x % 32;
  unsigned int waiting = __activemask();  // the lanes whose bin has no add yet
  for (;;) {
    const int leader = __ffs(waiting) - 1;
    const unsigned int leaders_bin = __shfl_sync(waiting, bin, leader);
    const unsigned int group = __ballot_sync(waiting, bin == leaders_bin);
    if (lane == static_cast<unsigned int>(leader)) add(bin, __popc(group));
    if ((group >> lane) & 1u) return;  // my bin is counted
    waiting &= ~group;                 // the same in every lane still here
  }
#else
  const unsigned int peers = __match_any_s\
ync(__activemask(), bin);
  if (static_cast<int>(threadIdx.x % 32) == __ffs(peers) - 1)
    add(bin, static_cast<unsigned int>(__popc(peers)));
#endif
}

}  // namespace exercise01
