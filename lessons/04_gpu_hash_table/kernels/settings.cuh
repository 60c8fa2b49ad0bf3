// How lesson 04's GPU versions are launched: the block size and grid the book keeps, the window
// sizes of open addressing, the stream, and the scratch memory and region size of v6 to v8.
#pragma once

#include <cstddef>
#include <stdexcept>

#include "../reference.hpp"

namespace lesson04 {

constexpr int kThreads = 256;      // the book's block size, kept by every version
constexpr int kSourceBlocks = 60;  // the book's grid, kept by the chained versions (v0 to v3)
constexpr int kWindow = 4;         // v5's slots per probe: 4 x 8 bytes, one 32-byte sector
constexpr int kMaxWindow = 16;     // capacities are multiples of this: windows of 1 to 16 slots fit

class PartitionScratch;  // v6_partitioned.cuh

// How to run a version: on which stream, and with how many blocks (0: the version's own grid).
// v6 to v8 also take the GPU memory their partitions go in (nullptr: their own, for this call),
// and the size of v6's table regions or v7's and v8's stretches (0: kRegionL2Share of the L2, and
// what a block's shared memory holds).
struct Launch {
  cudaStream_t stream = nullptr;
  int blocks = 0;
  PartitionScratch* scratch = nullptr;
  std::size_t region_bytes = 0;
};

inline void require_keys(std::size_t n, std::size_t room) {
  if (n == 0 || n > kMaxKeys) throw std::invalid_argument("a table takes 1 to 2^32 - 1 keys");
  if (n > room) throw std::length_error("more keys than the table has entries for");
}

}  // namespace lesson04
