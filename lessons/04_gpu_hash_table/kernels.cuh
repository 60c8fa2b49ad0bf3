// Lesson 04: a hash table built on the GPU. Every insert function puts the n keys at `keys` (device
// memory, any n >= 1) into a table, entry i holding (keys[i], i), and enqueues all its work on
// launch.stream. The chained versions (v0 to v3) keep every entry, as the book does; open
// addressing (v4 to v8) keeps each distinct key once, with the index of its last occurrence
// (reference.hpp says why). The find functions write, for each query, its key's value or kNotFound.
//
//   v0  the book's table: a lock per bucket, taken by a warp's 32 threads one at a time
//   v1  the locks made correct (acquire and release), and the warp loop dropped
//   v2  no lock: a compare-and-swap on the bucket head
//   v3  v2 on a table of n / load factor buckets instead of the book's 1024
//   v4  open addressing: linear probing, a compare-and-swap on a key/value slot
//   v5  cooperative probing: a tile of 4 threads probes a 32-byte window
//   v6  v5 on keys partitioned by table region, so that a region at a time sits in L2
//   v7  each stretch of the table built in a block's shared memory, and written once
//   v8  v7 on keys taken to their stretch in two passes of few buckets
//   the library  a sorted array: CUB's radix sort, and Thrust's binary search to find
//   cuco         cuCollections' cuco::static_map, when the build names its headers
//
// Each version lives in kernels/, kernel by kernel with the host function that runs it, and each
// changes one idea. Read them in this order: settings.cuh, v0_v3_chained.cuh, v4_v5_open.cuh,
// v6_partitioned.cuh (the partition that v7 and v8 build on), v7_stretches.cuh, v8_two_pass.cuh,
// libraries.cuh and library_cuco.cuh. This file lists the versions for the program and the tests.
#pragma once

#include <vector>

#include "kernels/settings.cuh"
#include "kernels/v0_v3_chained.cuh"
#include "kernels/v4_v5_open.cuh"
#include "kernels/v6_partitioned.cuh"
#include "kernels/v7_stretches.cuh"
#include "kernels/v8_two_pass.cuh"

#include "kernels/libraries.cuh"
#include "kernels/library_cuco.cuh"

namespace lesson04 {

struct ChainedVersion {
  const char* name;
  const char* idea;
  ChainedInsert insert;
  bool sized_from_load_factor;  // buckets = n / load factor, else the book's 1024
};

inline const std::vector<ChainedVersion>& chained_versions() {
  static const std::vector<ChainedVersion> all = {
      {"v1", "locks made correct (acquire/release), no warp loop", insert_locked, false},
      {"v2", "lock-free: a CAS on the bucket head", insert_lock_free, false},
      {"v3", "v2 with n / load factor buckets", insert_lock_free, true},
  };
  return all;
}

struct OpenVersion {
  const char* name;
  const char* idea;
  OpenInsert insert;
  OpenFind find;
};

inline const std::vector<OpenVersion>& open_versions() {
  static const std::vector<OpenVersion> all = {
      {"v4", "open addressing: linear probing, CAS on a key/value slot", insert_open, find_open},
      {"v5", "cooperative probing: 4 threads probe a 32-byte window", insert_cooperative<kWindow>,
       find_cooperative<kWindow>},
      {"v6", "v5 on keys partitioned by table region, a region at a time in L2", insert_partitioned,
       find_partitioned},
      {"v7", "each stretch of the table built in a block's shared memory, written once",
       insert_stretches, find_stretches},
      {"v8", "v7 on keys taken to their stretch in two passes of few buckets", insert_two_pass,
       find_two_pass},
  };
  return all;
}

}  // namespace lesson04
