// The harness of exercise 2 (lesson 06): one thread per output place calls the student's
// merged_at, on the lists themselves or on lists that count the reads.
#include "../../grading/harness.hpp"

#include <merge_path.cuh>  // the student's file

#include <stdexcept>

#include "merge_path_harness.hpp"

namespace grading06 {
namespace {

// A list that counts how many of its keys are read.
struct CountingList {
  const exercise06::Key* keys;
  unsigned* reads;
  template <typename Index>
  __device__ exercise06::Key operator[](Index i) const {
    ++*reads;
    return keys[i];
  }
};

// Another that does: one pointer (the size of a const Key*), to the keys and the count together.
struct Tally {
  const exercise06::Key* keys;
  unsigned reads;
};
struct TallyList {
  Tally* tally;
  template <typename Index>
  __device__ exercise06::Key operator[](Index i) const {
    ++tally->reads;
    return tally->keys[static_cast<int>(i)];
  }
};

__global__ void merge_kernel(const std::uint32_t* a, const std::uint32_t* b, int k,
                             std::uint32_t* out, unsigned* reads, ListKind kind) {
  const std::size_t list = static_cast<std::size_t>(blockIdx.x) * k;
  const int o = static_cast<int>(threadIdx.x);
  if (reads == nullptr || kind == ListKind::pointers) {
    const exercise06::Key* la = a + list;
    const exercise06::Key* lb = b + list;
    out[list + o] = exercise06::merged_at(la, lb, k, o);
  } else if (kind == ListKind::counting) {
    unsigned mine = 0;
    const CountingList la{a + list, &mine};
    const CountingList lb{b + list, &mine};
    out[list + o] = exercise06::merged_at(la, lb, k, o);
    reads[list + o] = mine;
  } else {
    Tally ta{a + list, 0};
    Tally tb{b + list, 0};
    const TallyList la{&ta};
    const TallyList lb{&tb};
    out[list + o] = exercise06::merged_at(la, lb, k, o);
    reads[list + o] = ta.reads + tb.reads;
  }
}

}  // namespace

void merge_lists(const std::uint32_t* d_a, const std::uint32_t* d_b, int k, std::size_t pairs,
                 std::uint32_t* d_out, unsigned* d_reads, ListKind kind) {
  if (k < 1 || k > 1024) throw std::invalid_argument("k must be from 1 to 1024");
  grading::watched([&] {
    merge_kernel<<<static_cast<unsigned>(pairs), k>>>(d_a, d_b, k, d_out, d_reads, kind);
  });
}

}  // namespace grading06
