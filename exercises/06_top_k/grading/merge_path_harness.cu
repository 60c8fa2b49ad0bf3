// The harness of exercise 2 (lesson 06): one thread per output place calls the student's
// merged_at, on the lists themselves or on lists that count the reads.
#include "../../grading/harness.hpp"

#include <merge_path.cuh>  // the student's file

#include <random>
#include <stdexcept>

#include "../../../common/check.hpp"
#include "merge_path_harness.hpp"

namespace grading06 {
namespace {

// The counted lists hold their keys scrambled (each XORed with a mask drawn at every call), in
// private members: a key is only had through operator[], which counts it. An answer that reaches
// past it for the memory behind reads scrambled keys, and its merge is wrong.

// A list that counts how many of its keys are read.
class CountingList {
 public:
  __device__ CountingList(const exercise06::Key* scrambled, exercise06::Key mask, unsigned* reads)
      : scrambled_(scrambled), mask_(mask), reads_(reads) {}
  template <typename Index>
  __device__ exercise06::Key operator[](Index i) const {
    ++*reads_;
    return scrambled_[i] ^ mask_;
  }

 private:
  const exercise06::Key* scrambled_;
  exercise06::Key mask_;
  unsigned* reads_;
};

// Another that does: one pointer (the size of a const Key*), to the keys and the count together.
class Tally {
 public:
  __device__ Tally(const exercise06::Key* scrambled, exercise06::Key mask)
      : scrambled_(scrambled), mask_(mask) {}
  __device__ unsigned reads() const { return reads_; }

 private:
  friend class TallyList;
  const exercise06::Key* scrambled_;
  exercise06::Key mask_;
  unsigned reads_ = 0;
};
class TallyList {
 public:
  __device__ explicit TallyList(Tally* tally) : tally_(tally) {}
  template <typename Index>
  __device__ exercise06::Key operator[](Index i) const {
    ++tally_->reads_;
    return tally_->scrambled_[static_cast<int>(i)] ^ tally_->mask_;
  }

 private:
  Tally* tally_;
};

__global__ void scramble_kernel(const std::uint32_t* keys, std::size_t count, std::uint32_t mask,
                                std::uint32_t* scrambled) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    scrambled[i] = keys[i] ^ mask;
}

__global__ void merge_kernel(const std::uint32_t* a, const std::uint32_t* b, int k,
                             std::uint32_t mask, std::uint32_t* out, unsigned* reads,
                             ListKind kind) {
  const std::size_t list = static_cast<std::size_t>(blockIdx.x) * k;
  const int o = static_cast<int>(threadIdx.x);
  if (reads == nullptr || kind == ListKind::pointers) {
    const exercise06::Key* la = a + list;
    const exercise06::Key* lb = b + list;
    out[list + o] = exercise06::merged_at(la, lb, k, o);
  } else if (kind == ListKind::counting) {
    unsigned mine = 0;
    const CountingList la(a + list, mask, &mine);
    const CountingList lb(b + list, mask, &mine);
    out[list + o] = exercise06::merged_at(la, lb, k, o);
    reads[list + o] = mine;
  } else {
    Tally ta(a + list, mask);
    Tally tb(b + list, mask);
    const TallyList la(&ta);
    const TallyList lb(&tb);
    out[list + o] = exercise06::merged_at(la, lb, k, o);
    reads[list + o] = ta.reads() + tb.reads();
  }
}

}  // namespace

void merge_lists(const std::uint32_t* d_a, const std::uint32_t* d_b, int k, std::size_t pairs,
                 std::uint32_t* d_out, unsigned* d_reads, ListKind kind) {
  if (k < 1 || k > 1024) throw std::invalid_argument("k must be from 1 to 1024");
  if (d_reads == nullptr || kind == ListKind::pointers) {
    grading::watched([&] {
      merge_kernel<<<static_cast<unsigned>(pairs), k>>>(d_a, d_b, k, 0, d_out, d_reads, kind);
    });
    return;
  }
  // The counted lists read scrambled copies of a and b, under a mask drawn now.
  const std::uint32_t mask = std::random_device{}() | 1u;
  const std::size_t count = pairs * static_cast<std::size_t>(k);
  std::uint32_t* scrambled = nullptr;
  CUDA_CHECK(cudaMalloc(&scrambled, 2 * count * sizeof(std::uint32_t)));
  grading::watched([&] {
    scramble_kernel<<<256, 256>>>(d_a, count, mask, scrambled);
    scramble_kernel<<<256, 256>>>(d_b, count, mask, scrambled + count);
    merge_kernel<<<static_cast<unsigned>(pairs), k>>>(scrambled, scrambled + count, k, mask, d_out,
                                                      d_reads, kind);
  });
  CUDA_CHECK(cudaFree(scrambled));
}

}  // namespace grading06
