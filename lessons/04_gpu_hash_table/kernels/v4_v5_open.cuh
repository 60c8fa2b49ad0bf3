// v4 and v5, open addressing: each distinct key in one 8-byte slot of a flat table, probed one slot
// at a time (v4) or a window of W slots at a time by a tile of W threads (v5).
#pragma once

#include <cooperative_groups.h>
#include <cuda/atomic>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "../reference.hpp"
#include "check.hpp"
#include "device_memory.hpp"
#include "format.hpp"
#include "launch.hpp"
#include "settings.cuh"

namespace lesson04 {

namespace cg = cooperative_groups;

struct OpenView {
  Slot* slots;
  std::uint32_t capacity;  // slots, a multiple of kMaxWindow
  Slot* empty_key_entry;   // the key kEmptyKey: 0 while absent, else pack(1, value)
  unsigned int* full;      // set to 1 when an insert found no empty slot
  Hash hash;
};

// The first slot (v4; count = capacity) or window (v5; count = capacity / W) of a key's probe.
__device__ inline std::uint32_t home(const OpenView& table, std::uint32_t key,
                                     std::uint32_t count) {
  return home_slot(table.hash, key, count);
}

// The device table's owner, on the host.
class OpenTable {
 public:
  // At least `slots` slots, rounded up to a whole number of v5's largest windows.
  explicit OpenTable(std::size_t slots, Hash hash = Hash::mixed)
      : slots_(round_up(slots)), side_(1), full_(1), hash_(hash) {
    clear();
  }
  void clear(cudaStream_t stream = nullptr) {
    slots_.fill_bytes(0xFF, stream);  // every slot kEmptySlot
    side_.fill_bytes(0, stream);
    full_.fill_bytes(0, stream);
  }
  OpenView view() {
    return {slots_.data(), static_cast<std::uint32_t>(slots_.size()), side_.data(), full_.data(),
            hash_};
  }
  std::size_t capacity() const { return slots_.size(); }

  // Throws, with a message that says why, if an insert since clear() found no room.
  void throw_if_full() const {
    if (full_.download()[0] != 0) {
      throw std::length_error(course::format(
          "the hash table is full: its %zu slots cannot hold every distinct key", capacity()));
    }
  }
  SlotCheck check(const Map& map, std::size_t n) const {
    return check_slots(slots_.download(), side_.download()[0], map, n);
  }

 private:
  static std::size_t round_up(std::size_t slots) {
    const std::size_t rounded =
        (std::max<std::size_t>(slots, 1) + kMaxWindow - 1) / kMaxWindow * kMaxWindow;
    if (rounded > 0xFFFFFFFFu - kMaxWindow) throw std::length_error("more than 2^32 slots");
    return rounded;
  }
  course::DeviceBuffer<Slot> slots_;
  course::DeviceBuffer<Slot> side_;
  course::DeviceBuffer<unsigned int> full_;
  Hash hash_;
};

using OpenInsert = void (*)(const std::uint32_t* keys, std::size_t n, OpenTable& table,
                            Launch launch);
using OpenFind = void (*)(const std::uint32_t* queries, std::size_t n, OpenTable& table,
                          std::uint32_t* out, Launch launch);

// One thread per key (or tile per key), with as many blocks as the GPU holds at once, or fewer
// when there are fewer keys.
template <typename Kernel>
int open_grid(Kernel kernel, std::size_t threads_needed, const Launch& launch) {
  if (launch.blocks > 0) return launch.blocks;
  const int resident = course::occupancy_grid(kernel, kThreads);
  const std::size_t blocks = (threads_needed + kThreads - 1) / kThreads;
  return static_cast<int>(std::min<std::size_t>(blocks, static_cast<std::size_t>(resident)));
}

// The key kEmptyKey cannot go in a slot: it has the side word, where the largest value wins.
__device__ inline void assign_empty_key(const OpenView& table, std::uint32_t value) {
  atomicMax(table.empty_key_entry, pack(1, value));
}
__device__ inline std::uint32_t find_empty_key(const OpenView& table) {
  const Slot entry = *table.empty_key_entry;
  return entry != 0 ? value_of(entry) : kNotFound;
}

// v4, open addressing with linear probing: no pointers and no pool. A key starts at slot
// home(key) and moves on one slot at a time until a compare-and-swap claims an empty slot,
// or finds its own key there. A repeated key keeps the larger index, which is the later one: the
// result is the same whatever order the threads run in. After `capacity` probes every slot has
// been seen: the table is full, and the insert says so instead of looping for ever. The probe
// itself starts at any slot s: v7 needs that.
__device__ inline void insert_or_assign_from(const OpenView& table, std::uint32_t key,
                                             std::uint32_t value, std::uint32_t s) {
  const Slot mine = pack(key, value);
  for (std::uint32_t probes = 0; probes < table.capacity; ++probes) {
    const Slot seen = atomicCAS(&table.slots[s], kEmptySlot, mine);
    if (seen == kEmptySlot) return;  // claimed
    if (key_of(seen) == key) {       // the key is here already: keep the later index
      atomicMax(&table.slots[s], mine);
      return;
    }
    s = s + 1 == table.capacity ? 0 : s + 1;
  }
  atomicOr(table.full, 1u);
}

__device__ inline void insert_or_assign(const OpenView& table, std::uint32_t key,
                                        std::uint32_t value) {
  if (key == kEmptyKey) {
    assign_empty_key(table, value);
    return;
  }
  insert_or_assign_from(table, key, value, home(table, key, table.capacity));
}

// Find follows the same probe sequence. The table does not change while find runs, so the slots
// are read through the read-only path (__ldg). An empty slot ends the search: an insert would have
// claimed it. A full table has none, so the search also stops after `capacity` probes.
__device__ inline std::uint32_t find_from(const OpenView& table, std::uint32_t key,
                                          std::uint32_t s) {
  for (std::uint32_t probes = 0; probes < table.capacity; ++probes) {
    const Slot slot = __ldg(&table.slots[s]);
    if (key_of(slot) == key) return value_of(slot);
    if (slot == kEmptySlot) return kNotFound;
    s = s + 1 == table.capacity ? 0 : s + 1;
  }
  return kNotFound;
}

__device__ inline std::uint32_t find(const OpenView& table, std::uint32_t key) {
  if (key == kEmptyKey) return find_empty_key(table);
  return find_from(table, key, home(table, key, table.capacity));
}

__global__ void open_insert_kernel(const std::uint32_t* keys, std::size_t n, OpenView table) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride())
    insert_or_assign(table, keys[i], static_cast<std::uint32_t>(i));
}

__global__ void open_find_kernel(const std::uint32_t* queries, std::size_t n, OpenView table,
                                 std::uint32_t* out) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride())
    out[i] = find(table, queries[i]);
}

inline void insert_open(const std::uint32_t* keys, std::size_t n, OpenTable& table, Launch launch) {
  require_keys(n, kMaxKeys);
  open_insert_kernel<<<open_grid(open_insert_kernel, n, launch), kThreads, 0, launch.stream>>>(
      keys, n, table.view());
  CUDA_CHECK_LAUNCH();
}

inline void find_open(const std::uint32_t* queries, std::size_t n, OpenTable& table,
                      std::uint32_t* out, Launch launch) {
  require_keys(n, kMaxKeys);
  open_find_kernel<<<open_grid(open_find_kernel, n, launch), kThreads, 0, launch.stream>>>(
      queries, n, table.view(), out);
  CUDA_CHECK_LAUNCH();
}

// v5, cooperative probing: a tile of W threads takes one key and probes W slots at once, one slot
// each: the window home(key) of the capacity / W windows, then the next window. The W loads are
// neighbours, so they travel as one request, and two ballots tell the whole tile whether the key
// is in the window and which slots are empty. At a high load factor, where v4 walks slot by slot
// along long runs of full slots, v5 moves W slots a step.
template <int W>
__device__ void insert_or_assign_tile(const cg::thread_block_tile<W>& tile, const OpenView& table,
                                      std::uint32_t key, std::uint32_t value) {
  const unsigned rank = tile.thread_rank();
  if (key == kEmptyKey) {
    if (rank == 0) assign_empty_key(table, value);
    return;
  }
  const Slot mine = pack(key, value);
  const std::uint32_t windows = table.capacity / W;
  std::uint32_t w = home(table, key, windows);
  for (std::uint32_t steps = 0; steps < windows; ++steps) {
    Slot* window = table.slots + static_cast<std::size_t>(w) * W;
    // Another tile may write the window while this one reads it: an atomic (relaxed) load. A slot
    // seen empty may be taken by the time of the CAS, which then fails and says by whom.
    const Slot seen = cuda::atomic_ref<Slot, cuda::thread_scope_device>(window[rank])
                          .load(cuda::memory_order_relaxed);
    const unsigned here = tile.ballot(key_of(seen) == key);
    if (here != 0) {
      if (rank == static_cast<unsigned>(__ffs(here) - 1)) atomicMax(&window[rank], mine);
      return;
    }
    for (unsigned empty = tile.ballot(seen == kEmptySlot); empty != 0; empty &= empty - 1) {
      const int leader = __ffs(empty) - 1;  // try the empty slots in order
      Slot got = 0;
      if (rank == static_cast<unsigned>(leader)) got = atomicCAS(&window[leader], kEmptySlot, mine);
      got = tile.shfl(got, leader);
      if (got == kEmptySlot) return;
      if (key_of(got) == key) {
        if (rank == static_cast<unsigned>(leader)) atomicMax(&window[leader], mine);
        return;
      }
    }
    w = w + 1 == windows ? 0 : w + 1;
  }
  if (rank == 0) atomicOr(table.full, 1u);
}

template <int W>
__device__ std::uint32_t find_tile(const cg::thread_block_tile<W>& tile, const OpenView& table,
                                   std::uint32_t key) {
  if (key == kEmptyKey) return find_empty_key(table);
  const std::uint32_t windows = table.capacity / W;
  std::uint32_t w = home(table, key, windows);
  for (std::uint32_t steps = 0; steps < windows; ++steps) {
    const Slot slot = __ldg(&table.slots[static_cast<std::size_t>(w) * W + tile.thread_rank()]);
    const unsigned here = tile.ballot(key_of(slot) == key);
    if (here != 0) return tile.shfl(value_of(slot), __ffs(here) - 1);
    if (tile.any(slot == kEmptySlot)) return kNotFound;
    w = w + 1 == windows ? 0 : w + 1;
  }
  return kNotFound;
}

// Key i's value: its index (v5), or values[i] (v6, whose keys have moved).
struct IndexValues {
  __device__ std::uint32_t operator[](std::size_t i) const { return static_cast<std::uint32_t>(i); }
};

// Tile t of the grid takes keys t, t + tiles, ...: every thread of a tile runs the same loop.
template <int W, typename Values = IndexValues>
__global__ void tile_insert_kernel(const std::uint32_t* keys, std::size_t n, OpenView table,
                                   Values values = {}) {
  const auto tile = cg::tiled_partition<W>(cg::this_thread_block());
  for (std::size_t i = course::first_index() / W; i < n; i += course::grid_stride() / W)
    insert_or_assign_tile<W>(tile, table, keys[i], values[i]);
}

template <int W>
__global__ void tile_find_kernel(const std::uint32_t* queries, std::size_t n, OpenView table,
                                 std::uint32_t* out) {
  const auto tile = cg::tiled_partition<W>(cg::this_thread_block());
  for (std::size_t i = course::first_index() / W; i < n; i += course::grid_stride() / W) {
    const std::uint32_t value = find_tile<W>(tile, table, queries[i]);
    if (tile.thread_rank() == 0) out[i] = value;
  }
}

template <int W>
void insert_cooperative(const std::uint32_t* keys, std::size_t n, OpenTable& table, Launch launch) {
  static_assert(kMaxWindow % W == 0, "a table's capacity is a multiple of kMaxWindow");
  require_keys(n, kMaxKeys);
  tile_insert_kernel<W>
      <<<open_grid(tile_insert_kernel<W>, n * W, launch), kThreads, 0, launch.stream>>>(
          keys, n, table.view());
  CUDA_CHECK_LAUNCH();
}

template <int W>
void find_cooperative(const std::uint32_t* queries, std::size_t n, OpenTable& table,
                      std::uint32_t* out, Launch launch) {
  static_assert(kMaxWindow % W == 0, "a table's capacity is a multiple of kMaxWindow");
  require_keys(n, kMaxKeys);
  tile_find_kernel<W>
      <<<open_grid(tile_find_kernel<W>, n * W, launch), kThreads, 0, launch.stream>>>(
          queries, n, table.view(), out);
  CUDA_CHECK_LAUNCH();
}

}  // namespace lesson04
