// The harness of exercise 2 (lesson 06): one thread per output place calls the student's
// merged_at, on the lists themselves or on lists that count the reads.
#include "../../probes/harness.hpp"

#include <merge_path.cuh>  // the student's file

#include <random>
#include <stdexcept>

#include "../../../common/check.hpp"
#include "../../../common/device_memory.hpp"
#include "merge_path_harness.hpp"

namespace grading06 {
namespace {

// The counted lists hold no keys, no mask and no count: only which list they are (0 for a, 1 for
// b), in different shapes. operator[] finds the block's keys, scrambled (each XORed with a mask
// drawn at every call), and counts the calling thread's read, through device variables of this
// file, which the student's file (included above them) cannot name. An answer that reaches past
// operator[] into a list's bytes finds a 0 or a 1; one that read the scrambled keys some other way
// would read wrong keys, and its merge would be wrong.
__device__ const exercise06::Key* g_scrambled[2];  // a's and b's keys, scrambled
__device__ exercise06::Key g_mask;
__device__ unsigned* g_reads;  // one count per thread of the launch

// A thread's read of key i of list `side`: counted, and unscrambled. Each block merges one pair,
// with one thread per output place, so the block's lists start at blockIdx.x * blockDim.x.
template <typename Index>
__device__ exercise06::Key counted_read(unsigned side, Index i) {
  const std::size_t block = static_cast<std::size_t>(blockIdx.x) * blockDim.x;
  ++g_reads[block + threadIdx.x];
  return g_scrambled[side][block + static_cast<int>(i)] ^ g_mask;
}

// A list that counts its reads: which list it is, in 32 bits.
class CountingList {
 public:
  __device__ explicit CountingList(unsigned side) : side_(side) {}
  template <typename Index>
  __device__ exercise06::Key operator[](Index i) const {
    return counted_read(side_, i);
  }

 private:
  unsigned side_;
};

// Another, the size of a pointer: which list it is, in 64 bits.
class TallyList {
 public:
  __device__ explicit TallyList(unsigned long long side) : side_(side) {}
  template <typename Index>
  __device__ exercise06::Key operator[](Index i) const {
    return counted_read(static_cast<unsigned>(side_), i);
  }

 private:
  unsigned long long side_;
};

__global__ void scramble_kernel(const std::uint32_t* keys, std::size_t count, std::uint32_t mask,
                                std::uint32_t* scrambled) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    scrambled[i] = keys[i] ^ mask;
}

__global__ void merge_kernel(const std::uint32_t* a, const std::uint32_t* b, int k,
                             std::uint32_t* out, unsigned* reads, ListKind kind) {
  const std::size_t list = static_cast<std::size_t>(blockIdx.x) * k;
  const int o = static_cast<int>(threadIdx.x);
  if (reads == nullptr || kind == ListKind::pointers) {
    const exercise06::Key* la = a + list;
    const exercise06::Key* lb = b + list;
    out[list + o] = exercise06::merged_at(la, lb, k, o);
  } else if (kind == ListKind::counting) {
    reads[list + o] = 0;
    const CountingList la(0);
    const CountingList lb(1);
    out[list + o] = exercise06::merged_at(la, lb, k, o);
  } else {
    reads[list + o] = 0;
    const TallyList la(0);
    const TallyList lb(1);
    out[list + o] = exercise06::merged_at(la, lb, k, o);
  }
}

}  // namespace

void merge_lists(const std::uint32_t* d_a, const std::uint32_t* d_b, int k, std::size_t pairs,
                 std::uint32_t* d_out, unsigned* d_reads, ListKind kind) {
  if (k < 1 || k > 1024) throw std::invalid_argument("k must be from 1 to 1024");
  if (d_reads == nullptr || kind == ListKind::pointers) {
    grading::watched([&] {
      merge_kernel<<<static_cast<unsigned>(pairs), k>>>(d_a, d_b, k, d_out, d_reads, kind);
    });
    return;
  }
  // The counted lists read scrambled copies of a and b, under a mask drawn now, and count into
  // d_reads.
  const std::uint32_t mask = std::random_device{}() | 1u;
  const std::size_t count = pairs * static_cast<std::size_t>(k);
  course::DeviceBuffer<std::uint32_t> scrambled(2 * count);
  const exercise06::Key* sides[2] = {scrambled.data(), scrambled.data() + count};
  CUDA_CHECK(cudaMemcpyToSymbol(g_scrambled, sides, sizeof sides));
  CUDA_CHECK(cudaMemcpyToSymbol(g_mask, &mask, sizeof mask));
  CUDA_CHECK(cudaMemcpyToSymbol(g_reads, &d_reads, sizeof d_reads));
  grading::watched([&] {
    scramble_kernel<<<256, 256>>>(d_a, count, mask, scrambled.data());
    scramble_kernel<<<256, 256>>>(d_b, count, mask, scrambled.data() + count);
    merge_kernel<<<static_cast<unsigned>(pairs), k>>>(d_a, d_b, k, d_out, d_reads, kind);
  });
}

}  // namespace grading06
