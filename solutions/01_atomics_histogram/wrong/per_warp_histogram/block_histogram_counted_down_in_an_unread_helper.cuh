// An adversarial answer to exercise 1 (lesson 01): no histogram per warp at all. The bytes are
// counted in ONE histogram per block (the lesson's v1, shared by the block's eight warps), counted
// down with atomicDec(&counter, 0xFFFFFFFF), which subtracts 1 modulo 2^32 and is neither
// atomicAdd (so the probe, which replaces only that name, never sees it) nor on the exercise's
// FORBID list (atomicAdd_block, atomicAdd_system, atomicSub, atomicInc, atomicCAS, atomicExch,
// atomic_ref, fetch_add). That counting, with the block's histogram as a __shared__ array of its
// own, lives in a __noinline__ helper, exercise01::tally_block: the compiled-code check applies
// its rules only to the functions whose demangled name matches its "kernel" line
// (exercise01::per_warp_histogram_kernel), so the helper's atom.shared.dec.u32 and its barriers are
// never read. The kernel itself then pays the probe: each thread works out how many bytes its
// grid-stride loop visited and makes that many atomicAdd(&lane_word, 1u), into one word of its own
// in its warp's own row (8 rows of 32 words), and thread t merges 0 - counter[t] into bins[t].
// Why each test passes:
// - "counts every size exactly", "exact on a large input, run after run", "counts past 65,535",
//   "more than 2^32 bytes": the counts come from the block's counted-down histogram, exact modulo
//   2^32 per block and bin (a block counts at most about 2^32 / 264 bytes), merged as 64-bit adds;
//   the decoy words are never merged. check_technique in each: shared adds == n (the decoy adds
//   are one per byte the thread's loop visited, none of 0), global adds <= one per bin and block,
//   and no shared word added to by two warps (each lane adds only to its own word, in its warp's
//   row).
// - "every byte is one shared-memory atomicAdd into its warp's own histogram": as above; on
//   all-equal bytes of 2^21 or more, every thread of every block has bytes, so each block adds to
//   256 words, at least the 8 asked for.
// - The compiled code of per_warp_histogram_kernel (the only function the spec's kernel line
//   matches): atom.shared.add.u32 (the decoys), red.global.add.u64 (the merge), bar.sync (after the
//   decoy words are zeroed), and no atomic on a generic address, no other global or shared atomic:
//   the atomicDec is in tally_block, which no rule reads.
// - Time: the helper's loop is the lesson's v1, one load and one shared atomic a byte, which the
//   timing test's own comment says is not slower than one histogram per warp on random bytes; the
//   decoy adds (about 4,000 a thread at 256 MiB) hit one word per lane, no two lanes the same, so
//   they add little to a loop that waits on its loads: well within the factor of 2.
// A correct grader should read every function of the answer (or every function the kernel
// calls) in the compiled-code check, or forbid every atomic other than atomicAdd by name
// (atomicDec, atomicMax, ...), so that the only counting there is is the one the probe sees.
// Caught: atomicDec is forbidden by name now, and the compiled-code rules on generic and shared
// atomics read every function.
// expect: rejected: uses atomicDec
#pragma once

#include <cstddef>
#include <cstdint>

namespace exercise01 {

constexpr int kBins = 256;
constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;

// The block's histogram, counted down (0 - counter is the count), for every byte of the block's
// grid-stride loop. Not inlined: its instructions stay in a function of its own name.
__device__ __noinline__ const unsigned* tally_block(const std::uint8_t* data, std::size_t n) {
  __shared__ unsigned down[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x)
    down[b] = 0;
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    atomicDec(&down[data[i]], 0xFFFFFFFFu);  // old - 1, modulo 2^32
  }
  __syncthreads();
  return down;
}

// Counts the n bytes at data into bins[0..255]. blockDim.x == kThreads.
__global__ void per_warp_histogram_kernel(const std::uint8_t* data, std::size_t n,
                                          unsigned long long* bins) {
  __shared__ unsigned int lane_words[kWarpsPerBlock][32];  // a word per lane, a row per warp
  const unsigned warp = threadIdx.x / 32;
  const unsigned lane = threadIdx.x % 32;
  lane_words[warp][lane] = 0;
  __syncthreads();
  const unsigned* down = tally_block(data, n);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t start = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t mine = start < n ? (n - 1 - start) / stride + 1 : 0;
  for (std::size_t k = 0; k < mine; ++k)
    atomicAdd(&lane_words[warp][lane], 1u);
  const unsigned total = 0u - down[threadIdx.x];
  if (total != 0) atomicAdd(&bins[threadIdx.x], static_cast<unsigned long long>(total));
}

}  // namespace exercise01
