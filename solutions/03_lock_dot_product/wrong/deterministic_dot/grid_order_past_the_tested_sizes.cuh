// An adversarial answer to exercise 2 (lesson 03): deterministic only where tested. The tests look
// at the bits, or at each partial sum, only at sizes up to 2^24 elements (the partial sums: at most
// 2^24; the bits across grids and runs: 2^21 to about 2^23; the whole numbers: 2.5 million), and
// then past 2^31, where only whole numbers are used; between 2^24 and 2^31 only the timed run
// goes, and it checks the result against an error bound. For 2^25 < n < 2^31 (and no more blocks
// than chunks) this answer is the lesson's v3: a grid-stride loop over the elements (four at a
// time), one partial sum per block in partials[blockIdx.x], the other partials set to 0; so the
// bits depend on the grid, exactly what the exercise is there to remove, at the sizes where a user
// would run it. Everywhere else it is the model answer (chunks b, b + gridDim.x, ...; block_sum;
// a fixed order in add_partials).
//   - "exact on whole numbers, at every size" (n up to 2.5 million), "each partial sum is its own
//     chunk's" (n up to 2^24), "the same bits whatever the grid" (n below 2^21 + 3 * 2^21),
//     "past 2^31" and "past 2^32" (n above 2^31): the model path.
//   - timing (n about 2^28, whole numbers, 4 blocks an SM): the grid-stride path; whole numbers in
//     [-4, 4], so every per-thread and per-block sum is an integer below 2^24 in size and exact,
//     the result exact, well within the bound; the partial sums there are not looked at.
//   - compiled code: both kernels hold bar.sync (block_sum); no atomic, no fence.
//   - time: a grid-stride loop with eight loads in flight a thread reads 2 GiB at memory speed;
//     no slower than the model answer.
// A correct grader should check the bits across grids (and the partial sums) at a size drawn from
// the timed range too, or check the timed run's partial sums against the chunks' exact ones
// (GpuIntegers already has them).
// Caught: a test case now checks every partial sum, and the bits across two grids, at a size drawn
// from 2^24 to 2^29 and one from the timed range; the last timed run's partial sums are checked too.
// expect: fails: are not their chunk's
#pragma once

#include <cstddef>

#include "deterministic_dot_support.cuh"  // exercise03::block_sum (grading/)

namespace exercise03 {

constexpr std::size_t kChunk = 4096;
constexpr int kThreads = 256;

// For every chunk c of the n >= 1 elements (elements c * kChunk up to the next chunk or n):
// partials[c] = sum of a[i] * b[i] over the chunk, added in an order that depends on c and n
// alone. Block b takes chunks b, b + gridDim.x, ...; blockDim.x == kThreads; any gridDim.x.
__global__ void chunk_dots(const float* a, const float* b, std::size_t n, float* partials) {
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  const bool untested = n > (std::size_t{1} << 25) && n < (std::size_t{1} << 31) &&
                        static_cast<std::size_t>(gridDim.x) <= chunks;
  if (untested) {
    // The lesson's v3: the grid's threads stride over the elements; one sum per block.
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    const std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    std::size_t i = first;
    for (; i + 3 * stride < n; i += 4 * stride) {
      const float a0 = a[i], a1 = a[i + stride], a2 = a[i + 2 * stride], a3 = a[i + 3 * stride];
      const float b0 = b[i], b1 = b[i + stride], b2 = b[i + 2 * stride], b3 = b[i + 3 * stride];
      s0 += a0 * b0;
      s1 += a1 * b1;
      s2 += a2 * b2;
      s3 += a3 * b3;
    }
    for (; i < n; i += stride)
      s0 += a[i] * b[i];
    float sum = (s0 + s1) + (s2 + s3);
    sum = block_sum(sum);
    if (threadIdx.x == 0) partials[blockIdx.x] = sum;
    for (std::size_t c = static_cast<std::size_t>(gridDim.x) + first; c < chunks; c += stride)
      partials[c] = 0.0f;  // the chunks no block has a sum for
    return;
  }
  for (std::size_t c = blockIdx.x; c < chunks; c += gridDim.x) {  // the same for the whole block
    const std::size_t end = (c + 1) * kChunk < n ? (c + 1) * kChunk : n;
    float sum = 0;
    for (std::size_t i = c * kChunk + threadIdx.x; i < end; i += blockDim.x)
      sum += a[i] * b[i];
    sum = block_sum(sum);
    if (threadIdx.x == 0) partials[c] = sum;
    __syncthreads();  // block_sum's shared memory is used again for the next chunk
  }
}

// *result = the sum of partials[0, chunks), in an order that depends on chunks alone. One block of
// kThreads threads.
__global__ void add_partials(const float* partials, std::size_t chunks, float* result) {
  float sum = 0;
  for (std::size_t c = threadIdx.x; c < chunks; c += blockDim.x)
    sum += partials[c];
  sum = block_sum(sum);
  if (threadIdx.x == 0) *result = sum;
}

}  // namespace exercise03
