// Lesson 04: a hash table built on the GPU. One kernel per version, in order, each followed by the
// host function that runs it; read from v0 down. Each version changes one idea.
//
// Every insert function puts the n keys at `keys` (device memory, any n >= 1) into a table, entry
// i holding (keys[i], i), and enqueues all its work on launch.stream. The chained versions (v0 to
// v3) keep every entry, as the book does; open addressing (v4 to v8) keeps each distinct key once,
// with the index of its last occurrence (reference.hpp says why). The find functions write, for
// each query, its key's value or kNotFound.
#pragma once

#include <cooperative_groups.h>
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/transform.h>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/atomic>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "../03_lock_dot_product/lock.cuh"
#include "check.hpp"
#include "device_memory.hpp"
#include "launch.hpp"
#include "reference.hpp"

namespace lesson04 {

namespace cg = cooperative_groups;

constexpr int kThreads = 256;    // the book's block size, kept by every version
constexpr int kSeedBlocks = 60;  // the book's grid, kept by the chained versions (v0 to v3)
constexpr int kWindow = 4;       // v5's slots per probe: 4 x 8 bytes, one 32-byte sector
constexpr int kMaxWindow = 16;   // capacities are multiples of this: windows of 1 to 16 slots fit

class PartitionScratch;

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

// ---- chained tables (v0 to v3) ------------------------------------------------------------------

// What a kernel gets: the bucket heads, the entry pool (the thread inserting key i fills pool[i],
// as in the book) and one lock word per bucket.
struct ChainedView {
  Entry** heads;
  Entry* pool;
  int* locks;
  std::uint32_t buckets;
};

// Fills entry i of the pool with (key, i), and returns it: the entry that the thread inserting
// key i links into its bucket, as in the book.
__device__ inline Entry* fill_entry(const ChainedView& table, std::uint32_t key, std::size_t i) {
  Entry* entry = &table.pool[i];
  entry->key = key;
  entry->value = static_cast<std::uint32_t>(i);
  return entry;
}

// The device table's owner, on the host.
class ChainedTable {
 public:
  ChainedTable(std::size_t buckets, std::size_t capacity)
      : heads_(buckets), pool_(capacity), locks_(buckets) {
    if (buckets == 0 || buckets > 0xFFFFFFFFu) throw std::invalid_argument("bad bucket count");
    clear();
  }
  // Empties the table: every head null, every lock free. The pool is not touched.
  void clear(cudaStream_t stream = nullptr) {
    heads_.fill_bytes(0, stream);
    locks_.fill_bytes(0, stream);
  }
  ChainedView view() {
    return {heads_.data(), pool_.data(), locks_.data(), static_cast<std::uint32_t>(heads_.size())};
  }
  std::size_t buckets() const { return heads_.size(); }
  std::size_t capacity() const { return pool_.size(); }

  // The book's copy_table_to_host and verify_table: copies the table back, rebases its pointers
  // and walks every chain, against the keys that were inserted.
  ChainCheck check(const std::vector<std::uint32_t>& keys) const {
    std::vector<Entry*> heads;
    std::vector<Entry> pool;
    copy_to_host(heads, pool);
    return check_chains(heads, pool.data(), pool.size(), keys.data(), keys.size());
  }
  // For the tests: "" when the table passes check() and holds exactly what std::unordered_multimap
  // holds after the same inserts; otherwise what is wrong.
  std::string mismatch(const std::vector<std::uint32_t>& keys) const {
    std::vector<Entry*> heads;
    std::vector<Entry> pool;
    copy_to_host(heads, pool);
    const std::size_t n = keys.size();
    const ChainCheck c = check_chains(heads, pool.data(), pool.size(), keys.data(), n);
    if (!c.ok(n)) return c.text(n);
    if (chain_pairs(heads, n) != multimap_pairs(keys))
      return "differs from std::unordered_multimap";
    return "";
  }

 private:
  // The table's heads and pool, with every pointer rebased onto `pool`.
  void copy_to_host(std::vector<Entry*>& heads, std::vector<Entry>& pool) const {
    heads = heads_.download();
    pool = pool_.download();
    rebase(heads, pool, pool_.data());
  }

  course::DeviceBuffer<Entry*> heads_;
  course::DeviceBuffer<Entry> pool_;
  course::DeviceBuffer<int> locks_;
};

using ChainedInsert = void (*)(const std::uint32_t* keys, std::size_t n, ChainedTable& table,
                               Launch launch);

inline int chained_grid(const Launch& launch) {
  return launch.blocks > 0 ? launch.blocks : kSeedBlocks;
}

// v0, the book's table: a lock per bucket, taken by the 32 threads of a warp one at a time. Before
// Volta (compute capability 7.0), a warp's threads shared one program counter: a thread spinning
// on a lock that another thread of its own warp held kept that thread from ever running on to its
// unlock, and the warp hung. The loop over lanes lets one thread in at a time. The lock orders
// nothing (lesson 03's lock.cuh): the head read inside it may be a stale copy in this SM's L1, and
// the entry written before it is then lost. kReadFromL2 reads the head with __ldcg, past L1, to
// test that.
template <bool kReadFromL2>
__global__ void seed_insert_kernel(const std::uint32_t* keys, std::size_t n, ChainedView table) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    const std::uint32_t key = keys[i];
    const std::uint32_t b = bucket_of(key, table.buckets);
    Entry* entry = fill_entry(table, key, i);
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (threadIdx.x % 32 == lane) {
        const lesson03::SeedLock lock{&table.locks[b]};
        lock.lock();
        if (kReadFromL2) {
          entry->next = reinterpret_cast<Entry*>(
              __ldcg(reinterpret_cast<const unsigned long long*>(&table.heads[b])));
        } else {
          entry->next = table.heads[b];
        }
        table.heads[b] = entry;
        lock.unlock();
      }
    }
  }
}

template <bool kReadFromL2>
void insert_seed_lock(const std::uint32_t* keys, std::size_t n, ChainedTable& table,
                      Launch launch) {
  require_keys(n, table.capacity());
  seed_insert_kernel<kReadFromL2>
      <<<chained_grid(launch), kThreads, 0, launch.stream>>>(keys, n, table.view());
  CUDA_CHECK_LAUNCH();
}

// v1: the locks made correct (lesson03::Lock: acquire when taken, release when freed), and the warp
// loop dropped: since Volta every thread has its own program counter and the scheduler lets a
// thread that holds a lock run on while its warp-mates spin, so each thread simply takes its
// bucket's lock.
__global__ void locked_insert_kernel(const std::uint32_t* keys, std::size_t n, ChainedView table) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    const std::uint32_t key = keys[i];
    const std::uint32_t b = bucket_of(key, table.buckets);
    Entry* entry = fill_entry(table, key, i);
    const lesson03::Lock lock{&table.locks[b]};
    lock.lock();
    entry->next = table.heads[b];
    table.heads[b] = entry;
    lock.unlock();
  }
}

inline void insert_locked(const std::uint32_t* keys, std::size_t n, ChainedTable& table,
                          Launch launch) {
  require_keys(n, table.capacity());
  locked_insert_kernel<<<chained_grid(launch), kThreads, 0, launch.stream>>>(keys, n, table.view());
  CUDA_CHECK_LAUNCH();
}

// v2: no lock. The new entry points at the head it saw, and one compare-and-swap makes it the head
// if the head is still that one; if another thread got in first, the CAS returns the new head and
// we try again. Relaxed ordering is enough while the table is only being built: no thread follows
// a head to an entry during the build, and the end of the kernel publishes everything. A table
// that is read while it is written needs memory_order_release here, and acquire in the reader.
__global__ void lock_free_insert_kernel(const std::uint32_t* keys, std::size_t n,
                                        ChainedView table) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    const std::uint32_t key = keys[i];
    Entry* entry = fill_entry(table, key, i);
    cuda::atomic_ref<Entry*, cuda::thread_scope_device> head(
        table.heads[bucket_of(key, table.buckets)]);
    Entry* seen = head.load(cuda::memory_order_relaxed);
    do {
      entry->next = seen;
    } while (!head.compare_exchange_weak(seen, entry, cuda::memory_order_relaxed));
  }
}

inline void insert_lock_free(const std::uint32_t* keys, std::size_t n, ChainedTable& table,
                             Launch launch) {
  require_keys(n, table.capacity());
  lock_free_insert_kernel<<<chained_grid(launch), kThreads, 0, launch.stream>>>(keys, n,
                                                                                table.view());
  CUDA_CHECK_LAUNCH();
}

// v3 runs v2's kernel on a table of n / load_factor buckets instead of 1024 (the caller sizes the
// table): about 25,600 threads no longer queue at each head, and a CAS almost always succeeds the
// first time.

// ---- open addressing (v4, v5) -------------------------------------------------------------------

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
// neighbours, so they travel as one request, and one ballot tells the whole tile whether the key is
// in the window and which slots are empty. At a high load factor, where v4 walks slot by slot along
// long runs of full slots, v5 moves W slots a step.
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

// ---- v6: the keys partitioned by table region ---------------------------------------------------

// v5's probes land all over a table eight times the size of the H100's L2, so nearly every one is
// a trip to DRAM. v6 first sorts the keys, roughly: by the region of the table their home window
// lies in, with one counting pass and one scatter, as radix-partitioned hash joins do. Then it
// runs v5's insert over the keys in that order. The grid works through the array from front to
// back, so at any moment its probes fall in one or two regions, and a region a fraction of the L2
// stays there while it is filled: each of its sectors comes from DRAM once and goes back once.
// Finds do the same, and then put each answer back in its query's place.
constexpr std::size_t kRegionL2Share = 4;  // a region is a quarter of the L2 unless told
constexpr int kPartitionItems = 16;        // keys per thread in the count and the scatter
constexpr int kPartitionTile = kThreads * kPartitionItems;  // keys per block: 4096
constexpr std::uint32_t kMaxRegions = 1024;  // regions x tiles stays below 2^31 (CUB's int count)

// How a table is cut: `count` regions of `per_region` of its v5 windows (the last may be short),
// and the keys into `tiles` tiles of kPartitionTile keys, one per block.
struct Regions {
  std::uint32_t windows;
  std::uint32_t per_region;
  std::uint32_t count;
  std::uint32_t tiles;
};

inline Regions regions_for(std::size_t capacity, std::size_t n, std::size_t region_bytes) {
  const std::size_t windows = capacity / kWindow;
  std::size_t per_region = std::max<std::size_t>(region_bytes / (kWindow * sizeof(Slot)), 1);
  per_region = std::max<std::size_t>(per_region, (windows + kMaxRegions - 1) / kMaxRegions);
  per_region = std::min(per_region, windows);  // a region larger than the table is the table
  return {static_cast<std::uint32_t>(windows), static_cast<std::uint32_t>(per_region),
          static_cast<std::uint32_t>((windows + per_region - 1) / per_region),
          static_cast<std::uint32_t>((n + kPartitionTile - 1) / kPartitionTile)};
}

// The region a key's probe starts in: v5's home window, over the windows a region holds.
__device__ inline std::uint32_t region_of(const OpenView& table, const Regions& r,
                                          std::uint32_t key) {
  return home(table, key, r.windows) / r.per_region;
}

// This block's tile of keys, kPartitionItems to a thread, every load issued before any is used.
// Keys past n are left unread; `in(j)` says whether key j is there.
struct TileKeys {
  std::uint32_t key[kPartitionItems];
  std::size_t first;
  std::size_t n;
  __device__ std::size_t index(int j) const { return first + j * kThreads + threadIdx.x; }
  __device__ bool in(int j) const { return index(j) < n; }
};

__device__ inline TileKeys load_tile(const std::uint32_t* keys, std::size_t n) {
  TileKeys t;
  t.first = static_cast<std::size_t>(blockIdx.x) * kPartitionTile;
  t.n = n;
#pragma unroll
  for (int j = 0; j < kPartitionItems; ++j)
    if (t.in(j)) t.key[j] = keys[t.index(j)];
  return t;
}

// Pass 1: each block counts its tile's keys per region in shared memory, and writes its counts
// region-major (counts[region * tiles + tile]), so that one exclusive scan of the whole array
// gives each tile the place where its keys of each region start.
__global__ void region_count_kernel(const std::uint32_t* keys, std::size_t n, OpenView table,
                                    Regions r, std::uint32_t* counts) {
  extern __shared__ std::uint32_t tally[];  // r.count words
  for (std::uint32_t b = threadIdx.x; b < r.count; b += blockDim.x)
    tally[b] = 0;
  __syncthreads();
  const TileKeys t = load_tile(keys, n);
#pragma unroll
  for (int j = 0; j < kPartitionItems; ++j)
    if (t.in(j)) atomicAdd(&tally[region_of(table, r, t.key[j])], 1u);
  __syncthreads();
  for (std::uint32_t b = threadIdx.x; b < r.count; b += blockDim.x)
    counts[static_cast<std::size_t>(b) * r.tiles + blockIdx.x] = tally[b];
}

// The middle of a block's scatter (v6's and v8's), once its tile's keys are counted per bucket in
// tally: each count becomes its bucket's first place in the line-up (an exclusive scan), and
// reserve(bucket, count, first place) runs for each bucket, by the thread that scanned it. Returns
// after a barrier, so that the places can be read.
constexpr int kBucketsPerThread = kMaxRegions / kThreads;
using TileScan = cub::BlockScan<std::uint32_t, kThreads>;

template <typename Reserve>
__device__ void bucket_places(typename TileScan::TempStorage& scan, std::uint32_t* tally,
                              std::uint32_t buckets, Reserve&& reserve) {
  std::uint32_t counts[kBucketsPerThread];
  std::uint32_t in_line[kBucketsPerThread];
#pragma unroll
  for (int q = 0; q < kBucketsPerThread; ++q) {
    const std::uint32_t b = threadIdx.x * kBucketsPerThread + q;
    counts[q] = b < buckets ? tally[b] : 0;
  }
  TileScan(scan).ExclusiveSum(counts, in_line);
  __syncthreads();
#pragma unroll
  for (int q = 0; q < kBucketsPerThread; ++q) {
    const std::uint32_t b = threadIdx.x * kBucketsPerThread + q;
    if (b >= buckets) continue;
    tally[b] = in_line[q];
    reserve(b, counts[q], in_line[q]);
  }
  __syncthreads();
}

// Pass 2: each block reads its tile again and sends every key to its region's stretch of the
// output, at the place the scan gave this tile. Written straight from the registers, the keys of
// one warp would go to as many stretches as they have regions, 4 bytes to each: so the block
// first lines its tile up by region in shared memory (each key's rank among its region's keys
// from a shared counter, each region's first place from a scan of the counts), and then the
// threads copy it out in order, neighbours to neighbouring addresses. Building (kFind false), key
// i's index goes with it: the key has moved, and its value is where it was. Finding, the query's
// new place is kept instead (moved_to[i]), to put its answer back.
template <bool kFind>
__global__ void region_scatter_kernel(const std::uint32_t* keys, std::size_t n, OpenView table,
                                      Regions r, const std::uint32_t* starts,
                                      std::uint32_t* keys_out, std::uint32_t* indices_or_places) {
  __shared__ typename TileScan::TempStorage scan;
  __shared__ std::uint32_t tally[kMaxRegions];  // counts, then each region's first place in line
  __shared__ std::uint32_t out_start[kMaxRegions];  // each region's first place in keys_out
  __shared__ std::uint32_t line_key[kPartitionTile];
  __shared__ std::uint32_t line_index[kPartitionTile];
  for (std::uint32_t b = threadIdx.x; b < r.count; b += kThreads) {
    tally[b] = 0;
    out_start[b] = starts[static_cast<std::size_t>(b) * r.tiles + blockIdx.x];
  }
  __syncthreads();
  const TileKeys t = load_tile(keys, n);
  std::uint32_t region[kPartitionItems];
  std::uint32_t rank[kPartitionItems];
#pragma unroll
  for (int j = 0; j < kPartitionItems; ++j) {
    if (!t.in(j)) continue;
    region[j] = region_of(table, r, t.key[j]);
    rank[j] = atomicAdd(&tally[region[j]], 1u);
  }
  __syncthreads();
  bucket_places(scan, tally, r.count, [](std::uint32_t, std::uint32_t, std::uint32_t) {});
#pragma unroll
  for (int j = 0; j < kPartitionItems; ++j) {
    if (!t.in(j)) continue;
    const std::uint32_t in_line = tally[region[j]] + rank[j];
    line_key[in_line] = t.key[j];
    line_index[in_line] = static_cast<std::uint32_t>(t.index(j));
  }
  __syncthreads();
  const std::size_t left = n - t.first;
  const std::uint32_t in_tile = left < kPartitionTile ? static_cast<std::uint32_t>(left)
                                                      : static_cast<std::uint32_t>(kPartitionTile);
  for (std::uint32_t s = threadIdx.x; s < in_tile; s += kThreads) {
    const std::uint32_t key = line_key[s];
    const std::uint32_t b = region_of(table, r, key);
    const std::uint32_t place = out_start[b] + (s - tally[b]);
    keys_out[place] = key;
    if (kFind) {
      indices_or_places[line_index[s]] = place;
    } else {
      indices_or_places[place] = line_index[s];
    }
  }
}

// After the finds, in the queries' order: answer i is at its query's new place.
__global__ void put_back_kernel(const std::uint32_t* answers, const std::uint32_t* moved_to,
                                std::size_t n, std::uint32_t* out) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride())
    out[i] = answers[moved_to[i]];
}

// Key i's value after the scatter: the index that came with it.
struct MovedValues {
  const std::uint32_t* indices;
  __device__ std::uint32_t operator[](std::size_t i) const { return indices[i]; }
};

// v6's to v8's GPU memory: the keys in region order, their indices (building) or new places
// (finding), the answers in region order (v7's build: its list of spilled keys; v8's second pass:
// the keys in stretch order, with their indices in `fourth`), the counts, CUB's scan space, and
// v8's plan (`plan`, its counts and places). It grows when a call needs more, so the lesson's
// program makes one before the timed runs and passes it in Launch::scratch.
class PartitionScratch {
 public:
  void reserve(std::size_t n, const Regions& r) {
    if (keys_.size() < n) {
      keys_ = course::DeviceBuffer<std::uint32_t>(n);
      second_ = course::DeviceBuffer<std::uint32_t>(n);
      answers_ = course::DeviceBuffer<std::uint32_t>(n);
      fourth_ = course::DeviceBuffer<std::uint32_t>(n);
    }
    const std::size_t counts = static_cast<std::size_t>(r.count) * r.tiles;
    if (counts_.size() < counts) counts_ = course::DeviceBuffer<std::uint32_t>(counts);
    std::size_t bytes = 0;
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, counts_.data(), counts_.data(),
                                             static_cast<int>(counts)));
    if (temp_.size() < bytes) temp_ = course::DeviceBuffer<unsigned char>(bytes);
  }
  std::uint32_t* keys() { return keys_.data(); }
  std::uint32_t* second() { return second_.data(); }
  std::uint32_t* answers() { return answers_.data(); }
  std::uint32_t* fourth() { return fourth_.data(); }
  std::uint32_t* counts() { return counts_.data(); }
  std::uint32_t* plan(std::size_t words) {
    if (plan_.size() < words) plan_ = course::DeviceBuffer<std::uint32_t>(words);
    return plan_.data();
  }
  unsigned char* temp() { return temp_.data(); }
  std::size_t temp_bytes() const { return temp_.size(); }
  // v7's count of spilled keys, or v8's (two_pass true).
  std::uint32_t* spill_count(bool two_pass = false) { return spill_count_.data() + two_pass; }

 private:
  course::DeviceBuffer<std::uint32_t> keys_{1};
  course::DeviceBuffer<std::uint32_t> second_{1};
  course::DeviceBuffer<std::uint32_t> answers_{1};
  course::DeviceBuffer<std::uint32_t> fourth_{1};
  course::DeviceBuffer<std::uint32_t> plan_{1};
  course::DeviceBuffer<std::uint32_t> counts_{1};
  course::DeviceBuffer<unsigned char> temp_{1};
  course::DeviceBuffer<std::uint32_t> spill_count_{2};
};

inline std::size_t region_bytes_for(const Launch& launch) {
  static const std::size_t l2 = course::l2_bytes();
  return launch.region_bytes > 0 ? launch.region_bytes : l2 / kRegionL2Share;
}

// The count, the scan and the scatter: afterwards s.keys() holds the keys in region order, and
// s.second() their indices (kFind false) or, for each query, its new place (kFind true).
template <bool kFind>
void partition_by_region(const std::uint32_t* keys, std::size_t n, OpenView view, const Regions& r,
                         PartitionScratch& s, cudaStream_t stream) {
  region_count_kernel<<<r.tiles, kThreads, r.count * sizeof(std::uint32_t), stream>>>(
      keys, n, view, r, s.counts());
  CUDA_CHECK_LAUNCH();
  std::size_t bytes = s.temp_bytes();
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(s.temp(), bytes, s.counts(), s.counts(),
                                           static_cast<int>(r.count * r.tiles), stream));
  region_scatter_kernel<kFind>
      <<<r.tiles, kThreads, 0, stream>>>(keys, n, view, r, s.counts(), s.keys(), s.second());
  CUDA_CHECK_LAUNCH();
}

// v6's insert, after partition_by_region<false>: v5's insert over the keys in region order.
inline void insert_partitioned_keys(std::size_t n, OpenTable& table, PartitionScratch& s,
                                    const Launch& launch) {
  tile_insert_kernel<kWindow, MovedValues>
      <<<open_grid(tile_insert_kernel<kWindow, MovedValues>, n * kWindow, launch), kThreads, 0,
         launch.stream>>>(s.keys(), n, table.view(), MovedValues{s.second()});
  CUDA_CHECK_LAUNCH();
}

// Runs `work` on launch.scratch, or on scratch of its own (freed after the GPU is done with it).
template <typename Work>
void with_scratch(std::size_t n, const Regions& r, const Launch& launch, Work&& work) {
  if (launch.scratch != nullptr) {
    launch.scratch->reserve(n, r);
    work(*launch.scratch);
    return;
  }
  PartitionScratch own;
  own.reserve(n, r);
  work(own);
  CUDA_CHECK(cudaStreamSynchronize(launch.stream));
}

inline void insert_partitioned(const std::uint32_t* keys, std::size_t n, OpenTable& table,
                               Launch launch) {
  require_keys(n, kMaxKeys);
  const Regions r = regions_for(table.capacity(), n, region_bytes_for(launch));
  with_scratch(n, r, launch, [&](PartitionScratch& s) {
    partition_by_region<false>(keys, n, table.view(), r, s, launch.stream);
    insert_partitioned_keys(n, table, s, launch);
  });
}

// v6's find: the queries partitioned the same way, v5's find over them in region order, each
// answer put back in its query's place.
inline void find_partitioned(const std::uint32_t* queries, std::size_t n, OpenTable& table,
                             std::uint32_t* out, Launch launch) {
  require_keys(n, kMaxKeys);
  const Regions r = regions_for(table.capacity(), n, region_bytes_for(launch));
  with_scratch(n, r, launch, [&](PartitionScratch& s) {
    partition_by_region<true>(queries, n, table.view(), r, s, launch.stream);
    tile_find_kernel<kWindow>
        <<<open_grid(tile_find_kernel<kWindow>, n * kWindow, launch), kThreads, 0, launch.stream>>>(
            s.keys(), n, table.view(), s.answers());
    CUDA_CHECK_LAUNCH();
    put_back_kernel<<<open_grid(put_back_kernel, n, launch), kThreads, 0, launch.stream>>>(
        s.answers(), s.second(), n, out);
    CUDA_CHECK_LAUNCH();
  });
}

// ---- v7: each stretch of the table built in shared memory ---------------------------------------

// v6's keys still claim their slots with compare-and-swaps in L2, one round trip each. v7 cuts
// each of v6's regions into stretches as large as a block's shared memory (kBuildBlocksPerSM
// blocks an SM), and gives each stretch a block: the block fills its stretch with empty slots in
// shared memory, reads its region's keys, inserts those whose probe starts in its stretch with
// shared-memory compare-and-swaps, and writes the stretch out whole, in order. The table is
// written once, with wide stores, and never read. A probe that runs off the end of its stretch
// cannot finish there: its key goes on a list, and one small kernel inserts the listed keys
// afterwards, in global memory as v4 does, into the slots still empty. Finds load each stretch
// into shared memory and answer there, going to global memory only for probes that run off it.
constexpr int kBuildThreads = 512;
constexpr int kBuildBlocksPerSM = 2;  // so that one block's shared work overlaps another's copies

// The table as v7 cuts it: v6's regions, each of `per_region` stretches of `windows` windows.
struct Stretches {
  Regions r;
  std::uint32_t windows;
  std::uint32_t per_region;
};

// The windows one block's shared memory holds when kBuildBlocksPerSM blocks share an SM (each
// block loses 1 KiB to the system): 3616 windows, 113 KiB, on an H100.
inline std::uint32_t stretch_windows() {
  const auto per_sm = static_cast<std::size_t>(
      course::device_attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
  const std::size_t per_block =
      std::min<std::size_t>(per_sm / kBuildBlocksPerSM - 1024, course::max_shared_bytes());
  return static_cast<std::uint32_t>(per_block / (kWindow * sizeof(Slot)));
}

inline Stretches stretches_for(std::size_t capacity, std::size_t n, std::uint32_t windows) {
  const std::size_t table_windows = capacity / kWindow;
  const std::size_t stretches = (table_windows + windows - 1) / windows;
  const std::size_t per_region = (stretches + kMaxRegions - 1) / kMaxRegions;
  const Regions r = regions_for(capacity, n, per_region * windows * kWindow * sizeof(Slot));
  return {r, static_cast<std::uint32_t>(std::min<std::size_t>(windows, table_windows)),
          static_cast<std::uint32_t>(per_region)};
}

// Block b's stretch: windows [first, end) of the table (none, for a block past the last region's
// end), and its region's keys, [begin, finish) of the partitioned array.
struct Stretch {
  std::uint32_t first;
  std::uint32_t end;
  std::uint32_t slots;
  std::size_t begin;
  std::size_t finish;
};

__device__ inline Stretch stretch_of(const Stretches& st, const std::uint32_t* starts,
                                     std::size_t n) {
  const std::uint32_t region = blockIdx.x / st.per_region;
  Stretch s;
  s.first = region * st.r.per_region + (blockIdx.x % st.per_region) * st.windows;
  s.end = min(min(s.first + st.windows, (region + 1) * st.r.per_region), st.r.windows);
  s.end = max(s.end, s.first);
  s.slots = (s.end - s.first) * kWindow;
  s.begin = starts[static_cast<std::size_t>(region) * st.r.tiles];
  s.finish =
      region + 1 < st.r.count ? starts[static_cast<std::size_t>(region + 1) * st.r.tiles] : n;
  return s;
}

// v7's way to find block b's stretch, as the build and find kernels take it (v8 has its own).
// Its keys are its region's: those of the other stretches are skipped (kAllOwn false).
struct RegionStretch {
  static constexpr bool kAllOwn = false;
  Stretches st;
  const std::uint32_t* starts;
  std::size_t n;
  __device__ Stretch operator()() const { return stretch_of(st, starts, n); }
  __device__ std::uint32_t home_window(const OpenView& table, std::uint32_t key) const {
    return home(table, key, st.r.windows);
  }
};

// Calls work(j, key, value, home window) for each key j of the block's region whose probe starts
// in its stretch. A thread loads kStretchBatch keys at once, and then the values (values[j], when
// there are values) of those that are its stretch's, so that a block has many loads in flight;
// when every key is the stretch's (Locate::kAllOwn), the values are loaded with the keys.
constexpr int kStretchBatch = 8;

template <typename Locate, typename Work>
__device__ void for_stretch_keys(const Stretch& s, const std::uint32_t* keys,
                                 const std::uint32_t* values, const OpenView& table,
                                 const Locate& locate, Work&& work) {
  for (std::size_t base = s.begin; base < s.finish;
       base += static_cast<std::size_t>(kStretchBatch) * blockDim.x) {
    std::uint32_t key[kStretchBatch];
    std::uint32_t w[kStretchBatch];
    std::uint32_t value[kStretchBatch];
#pragma unroll
    for (int q = 0; q < kStretchBatch; ++q) {
      const std::size_t j = base + q * blockDim.x + threadIdx.x;
      if (j < s.finish) {
        key[q] = keys[j];
        if (Locate::kAllOwn && values != nullptr) value[q] = values[j];
      }
    }
#pragma unroll
    for (int q = 0; q < kStretchBatch; ++q) {
      const std::size_t j = base + q * blockDim.x + threadIdx.x;
      w[q] = j < s.finish ? locate.home_window(table, key[q]) : s.end;
      if (!Locate::kAllOwn && values != nullptr && w[q] >= s.first && w[q] < s.end) {
        value[q] = values[j];
      }
    }
#pragma unroll
    for (int q = 0; q < kStretchBatch; ++q) {
      if (w[q] >= s.first && w[q] < s.end) {
        work(base + q * blockDim.x + threadIdx.x, key[q], values != nullptr ? value[q] : 0u, w[q]);
      }
    }
  }
}

template <typename Locate>
__global__ void stretch_build_kernel(const std::uint32_t* keys, const std::uint32_t* indices,
                                     OpenView table, Locate locate, std::uint32_t* spilled,
                                     std::uint32_t* spill_count) {
  // The stretch in shared memory as two arrays of 32-bit words, keys and values: a 32-bit
  // compare-and-swap claims a slot's key and a 32-bit atomicMax sets its value, both single
  // instructions in shared memory (a 64-bit atomicMax there is a loop of compare-and-swaps).
  extern __shared__ std::uint32_t words[];
  const Stretch s = locate();
  if (s.slots == 0) return;
  std::uint32_t* slot_keys = words;
  std::uint32_t* slot_values = words + s.slots;
  for (std::uint32_t k = threadIdx.x; k < s.slots; k += blockDim.x) {
    slot_keys[k] = kEmptyKey;
    slot_values[k] = 0;
  }
  __syncthreads();
  for_stretch_keys(s, keys, indices, table, locate,
                   [&](std::size_t j, std::uint32_t key, std::uint32_t value, std::uint32_t w) {
                     if (key == kEmptyKey) {
                       assign_empty_key(table, value);
                       return;
                     }
                     std::uint32_t k = (w - s.first) * kWindow;
                     for (; k < s.slots; ++k) {
                       const std::uint32_t seen = atomicCAS(&slot_keys[k], kEmptyKey, key);
                       if (seen == kEmptyKey || seen == key) {  // claimed, or already ours
                         atomicMax(&slot_values[k], value);
                         break;
                       }
                     }
                     if (k == s.slots) {
                       spilled[atomicAdd(spill_count, 1u)] = static_cast<std::uint32_t>(j);
                     }
                   });
  __syncthreads();
  // Two slots (16 bytes) a store: the stretch starts at a whole window, 32 bytes.
  auto* to =
      reinterpret_cast<ulonglong2*>(table.slots + static_cast<std::size_t>(s.first) * kWindow);
  for (std::uint32_t k = threadIdx.x; k < s.slots / 2; k += blockDim.x) {
    auto slot = [&](std::uint32_t i) {
      return slot_keys[i] == kEmptyKey ? kEmptySlot : pack(slot_keys[i], slot_values[i]);
    };
    to[k] = make_ulonglong2(slot(2 * k), slot(2 * k + 1));
  }
}

// The keys whose probe ran off their stretch, inserted into the finished table like v4's: from
// their first slot, on through the full ones, to an empty slot (or the full-table error).
__global__ void spilled_insert_kernel(const std::uint32_t* keys, const std::uint32_t* indices,
                                      const std::uint32_t* spilled,
                                      const std::uint32_t* spill_count, OpenView table) {
  const std::uint32_t count = *spill_count;
  for (std::size_t i = course::first_index(); i < count; i += course::grid_stride()) {
    const std::uint32_t j = spilled[i];
    const std::uint32_t key = keys[j];
    insert_or_assign_from(table, key, indices[j],
                          home(table, key, table.capacity / kWindow) * kWindow);
  }
}

// Where a find's answer goes: v7's in the queries' partitioned order, to be put back afterwards.
struct InLine {
  std::uint32_t* answers;
  __device__ void operator()(std::size_t j, std::uint32_t answer) const { answers[j] = answer; }
};

template <typename Locate, typename Deliver>
__global__ void stretch_find_kernel(const std::uint32_t* queries, OpenView table, Locate locate,
                                    Deliver deliver) {
  extern __shared__ Slot slots[];
  const Stretch s = locate();
  if (s.slots == 0) return;
  const auto* from = reinterpret_cast<const ulonglong2*>(
      table.slots + static_cast<std::size_t>(s.first) * kWindow);
  auto* to = reinterpret_cast<ulonglong2*>(slots);
  for (std::uint32_t k = threadIdx.x; k < s.slots / 2; k += blockDim.x)
    to[k] = from[k];
  __syncthreads();
  for_stretch_keys(s, queries, nullptr, table, locate,
                   [&](std::size_t j, std::uint32_t key, std::uint32_t, std::uint32_t w) {
                     if (key == kEmptyKey) {
                       deliver(j, find_empty_key(table));
                       return;
                     }
                     std::uint32_t answer = kNotFound;
                     std::uint32_t k = (w - s.first) * kWindow;
                     for (; k < s.slots; ++k) {
                       const Slot slot = slots[k];
                       if (key_of(slot) == key) {
                         answer = value_of(slot);
                         break;
                       }
                       if (slot == kEmptySlot) break;
                     }
                     if (k == s.slots) {  // off the end of the stretch: on in global memory
                       const std::uint32_t next = s.end * kWindow;
                       answer = find_from(table, key, next == table.capacity ? 0 : next);
                     }
                     deliver(j, answer);
                   });
}

inline Stretches stretches_for(const OpenTable& table, std::size_t n, const Launch& launch) {
  static const std::uint32_t windows = stretch_windows();
  if (launch.region_bytes == 0) return stretches_for(table.capacity(), n, windows);
  const std::size_t asked = launch.region_bytes / (kWindow * sizeof(Slot));
  return stretches_for(
      table.capacity(), n,
      static_cast<std::uint32_t>(std::max<std::size_t>(1, std::min<std::size_t>(asked, windows))));
}

inline std::size_t stretch_shared_bytes(const Stretches& st) {
  return static_cast<std::size_t>(st.windows) * kWindow * sizeof(Slot);
}

inline void insert_stretches(const std::uint32_t* keys, std::size_t n, OpenTable& table,
                             Launch launch) {
  require_keys(n, kMaxKeys);
  const Stretches st = stretches_for(table, n, launch);
  const std::size_t shared = stretch_shared_bytes(st);
  course::allow_shared_bytes(stretch_build_kernel<RegionStretch>, shared);
  with_scratch(n, st.r, launch, [&](PartitionScratch& s) {
    partition_by_region<false>(keys, n, table.view(), st.r, s, launch.stream);
    CUDA_CHECK(cudaMemsetAsync(s.spill_count(), 0, sizeof(std::uint32_t), launch.stream));
    stretch_build_kernel<<<st.r.count * st.per_region, kBuildThreads, shared, launch.stream>>>(
        s.keys(), s.second(), table.view(), RegionStretch{st, s.counts(), n}, s.answers(),
        s.spill_count());
    CUDA_CHECK_LAUNCH();
    spilled_insert_kernel<<<course::sm_count(), kThreads, 0, launch.stream>>>(
        s.keys(), s.second(), s.answers(), s.spill_count(), table.view());
    CUDA_CHECK_LAUNCH();
  });
}

inline void find_stretches(const std::uint32_t* queries, std::size_t n, OpenTable& table,
                           std::uint32_t* out, Launch launch) {
  require_keys(n, kMaxKeys);
  const Stretches st = stretches_for(table, n, launch);
  const std::size_t shared = stretch_shared_bytes(st);
  course::allow_shared_bytes(stretch_find_kernel<RegionStretch, InLine>, shared);
  with_scratch(n, st.r, launch, [&](PartitionScratch& s) {
    partition_by_region<true>(queries, n, table.view(), st.r, s, launch.stream);
    stretch_find_kernel<<<st.r.count * st.per_region, kBuildThreads, shared, launch.stream>>>(
        s.keys(), table.view(), RegionStretch{st, s.counts(), n}, InLine{s.answers()});
    CUDA_CHECK_LAUNCH();
    put_back_kernel<<<open_grid(put_back_kernel, n, launch), kThreads, 0, launch.stream>>>(
        s.answers(), s.second(), n, out);
    CUDA_CHECK_LAUNCH();
  });
}

// ---- v8: two passes to the stretch --------------------------------------------------------------

// v7's scatter sends a tile of 4096 keys to some 900 regions, runs of four or five keys, so that
// nearly every store is a sector of its own; and each of its build blocks reads its whole region,
// four stretches' keys, to find its own. v8 takes the keys all the way to their stretch in two
// passes of few buckets each, as a radix sort takes a wide key one digit at a time: first by
// region (2^kFineShift stretches), then, within its region, by stretch. One count of every
// stretch's keys, made first, gives each bucket its place, and a block reserves its run in a
// bucket with one atomicAdd on the bucket's cursor, so there are no per-tile counts to scan. The
// order of the runs within a bucket is whichever block came first: the build keeps the largest
// index of a key wherever it sits, and a find carries its query's place. Each build block then
// reads its own keys and no others, once.
constexpr std::uint32_t kFineShift = 6;  // 64 stretches a region, unless there are very many
constexpr std::uint32_t kMaxStretches = kMaxRegions * kMaxRegions;  // both passes: <= 1024 buckets
constexpr std::uint32_t kSharedStretchCounts = 16384;  // stretches counted in shared memory
constexpr int kPlanThreads = 1024;

// How v8 cuts a table: `count` stretches of `windows` windows (the last may be short), grouped
// `fine` (a power of two) to a region; the first pass's tiles of kPartitionTile keys.
struct TwoPass {
  std::uint32_t table_windows;
  std::uint32_t windows;
  std::uint32_t count;
  std::uint32_t fine;
  std::uint32_t regions;
  std::uint32_t tiles;
  FastDivide by_table;       // table_windows: a key's home window
  FastDivide by_stretch;     // windows: the window's stretch
  std::uint32_t fine_shift;  // log2(fine): the stretch's region
  // The plan's words in PartitionScratch::plan, in order: each stretch's count, each stretch's
  // first place (and n), each region's cursor, each stretch's cursor, each region's first tile
  // of the second pass (and their total).
  __host__ __device__ std::size_t counts() const { return 0; }
  __host__ __device__ std::size_t starts() const { return count; }
  __host__ __device__ std::size_t region_cursors() const { return starts() + count + 1; }
  __host__ __device__ std::size_t stretch_cursors() const { return region_cursors() + regions; }
  __host__ __device__ std::size_t tile_bases() const { return stretch_cursors() + count; }
  __host__ __device__ std::size_t words() const { return tile_bases() + regions + 1; }
};

inline TwoPass two_pass_for(std::size_t capacity, std::size_t n, std::size_t windows) {
  const std::size_t table_windows = capacity / kWindow;
  windows = std::min(std::max<std::size_t>(windows, 1), table_windows);
  windows = std::max<std::size_t>(windows, (table_windows + kMaxStretches - 1) / kMaxStretches);
  const std::size_t count = (table_windows + windows - 1) / windows;
  std::uint32_t fine_shift = kFineShift;
  while ((std::size_t{1} << fine_shift) * kMaxRegions < count)
    ++fine_shift;
  const std::size_t fine = std::size_t{1} << fine_shift;
  return {static_cast<std::uint32_t>(table_windows),
          static_cast<std::uint32_t>(windows),
          static_cast<std::uint32_t>(count),
          static_cast<std::uint32_t>(fine),
          static_cast<std::uint32_t>((count + fine - 1) / fine),
          static_cast<std::uint32_t>((n + kPartitionTile - 1) / kPartitionTile),
          FastDivide(static_cast<std::uint32_t>(table_windows)),
          FastDivide(static_cast<std::uint32_t>(windows)),
          fine_shift};
}

__device__ inline std::uint32_t home_window(const OpenView& table, const TwoPass& p,
                                            std::uint32_t key) {
  return home_slot(table.hash, key, p.by_table);
}

__device__ inline std::uint32_t stretch_of_key(const OpenView& table, const TwoPass& p,
                                               std::uint32_t key) {
  return p.by_stretch.quotient(home_window(table, p, key));
}

// Counts each stretch's keys: in shared memory, added to the global counts once a block, or, for
// a table of more stretches than shared memory counts, straight into the global counts.
__global__ void stretch_count_kernel(const std::uint32_t* keys, std::size_t n, OpenView table,
                                     TwoPass p, std::uint32_t* counts) {
  extern __shared__ std::uint32_t tally[];
  const bool in_shared = p.count <= kSharedStretchCounts;
  if (in_shared) {
    for (std::uint32_t b = threadIdx.x; b < p.count; b += blockDim.x)
      tally[b] = 0;
  }
  __syncthreads();
  constexpr int kBatch = 8;  // loads in flight a thread
  const std::size_t stride = course::grid_stride();
  for (std::size_t base = course::first_index(); base < n; base += kBatch * stride) {
    std::uint32_t key[kBatch];
#pragma unroll
    for (int q = 0; q < kBatch; ++q)
      if (base + q * stride < n) key[q] = keys[base + q * stride];
#pragma unroll
    for (int q = 0; q < kBatch; ++q) {
      if (base + q * stride >= n) continue;
      const std::uint32_t s = stretch_of_key(table, p, key[q]);
      if (in_shared) {
        atomicAdd(&tally[s], 1u);
      } else {
        atomicAdd(&counts[s], 1u);
      }
    }
  }
  if (!in_shared) return;
  __syncthreads();
  for (std::uint32_t b = threadIdx.x; b < p.count; b += blockDim.x)
    if (tally[b] != 0) atomicAdd(&counts[b], tally[b]);
}

// One block: each stretch's first place (an exclusive scan of the counts), the cursors the passes
// reserve their runs from, and where each region's tiles start among the second pass's blocks.
__global__ void two_pass_plan_kernel(TwoPass p, std::uint32_t* plan) {
  using Scan = cub::BlockScan<std::uint32_t, kPlanThreads>;
  __shared__ typename Scan::TempStorage scan;
  std::uint32_t* starts = plan + p.starts();
  std::uint32_t total = 0;
  for (std::uint32_t base = 0; base < p.count; base += kPlanThreads) {
    const std::uint32_t s = base + threadIdx.x;
    std::uint32_t first = s < p.count ? plan[p.counts() + s] : 0;
    std::uint32_t all = 0;
    Scan(scan).ExclusiveSum(first, first, all);
    __syncthreads();
    if (s < p.count) {
      starts[s] = total + first;
      plan[p.stretch_cursors() + s] = total + first;
    }
    total += all;
  }
  if (threadIdx.x == 0) starts[p.count] = total;
  __syncthreads();
  const std::uint32_t r = threadIdx.x;  // regions <= kMaxRegions = kPlanThreads
  std::uint32_t tiles = 0;
  if (r < p.regions) {
    const std::uint32_t first = starts[r * p.fine];
    const std::uint32_t end = starts[min((r + 1) * p.fine, p.count)];
    plan[p.region_cursors() + r] = first;
    tiles = (end - first + kPartitionTile - 1) / kPartitionTile;
  }
  std::uint32_t all = 0;
  Scan(scan).ExclusiveSum(tiles, tiles, all);
  if (r < p.regions) plan[p.tile_bases() + r] = tiles;
  if (r == 0) plan[p.tile_bases() + p.regions] = all;
}

// One pass: a block's tile of keys (with their indices; the first pass makes them from the keys'
// places) sent to their buckets, lined up by bucket in shared memory first, as v6 does, so that
// neighbouring threads store to neighbouring addresses. The first pass's bucket is the region, its
// tiles the input's; the second pass's bucket is the stretch within the region, and each of its
// blocks takes a tile of one region's keys.
template <bool kSecond>
__global__ void two_pass_scatter_kernel(const std::uint32_t* keys, const std::uint32_t* indices,
                                        std::size_t n, OpenView table, TwoPass p,
                                        std::uint32_t* plan, std::uint32_t* keys_out,
                                        std::uint32_t* indices_out) {
  __shared__ typename TileScan::TempStorage scan;
  __shared__ std::uint32_t tally[kMaxRegions];     // counts, then each bucket's first place in line
  __shared__ std::uint32_t out_base[kMaxRegions];  // a bucket's place in the output, less that
  __shared__ std::uint32_t line_key[kPartitionTile];
  __shared__ std::uint32_t line_index[kPartitionTile];
  std::size_t first = static_cast<std::size_t>(blockIdx.x) * kPartitionTile;
  std::size_t last = min(n, first + kPartitionTile);
  std::uint32_t region = 0;  // the second pass's: its buckets are this region's stretches
  std::uint32_t buckets = p.regions;
  std::uint32_t* cursors = plan + p.region_cursors();
  if (kSecond) {
    const std::uint32_t* tile_base = plan + p.tile_bases();
    if (blockIdx.x >= tile_base[p.regions]) return;
    std::uint32_t lo = 0;
    std::uint32_t hi = p.regions;  // the last region whose first tile is at or before this block
    while (hi - lo > 1) {
      const std::uint32_t mid = (lo + hi) / 2;
      if (tile_base[mid] <= blockIdx.x) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    region = lo;
    const std::uint32_t* starts = plan + p.starts();
    first = starts[region * p.fine] +
            static_cast<std::size_t>(blockIdx.x - tile_base[region]) * kPartitionTile;
    last = min(static_cast<std::size_t>(starts[min((region + 1) * p.fine, p.count)]),
               first + kPartitionTile);
    buckets = min(p.fine, p.count - region * p.fine);
    cursors = plan + p.stretch_cursors() + region * p.fine;
  }
  auto bucket_of = [&](std::uint32_t key) {
    const std::uint32_t s = stretch_of_key(table, p, key);
    return kSecond ? s - region * p.fine : s >> p.fine_shift;
  };
  for (std::uint32_t b = threadIdx.x; b < buckets; b += kThreads)
    tally[b] = 0;
  __syncthreads();
  std::uint32_t key[kPartitionItems];
  std::uint32_t index[kPartitionItems];
  std::uint32_t bucket[kPartitionItems];
  std::uint32_t rank[kPartitionItems];
#pragma unroll
  for (int j = 0; j < kPartitionItems; ++j) {
    const std::size_t i = first + j * kThreads + threadIdx.x;
    if (i < last) {
      key[j] = keys[i];
      index[j] = kSecond ? indices[i] : static_cast<std::uint32_t>(i);
    }
  }
#pragma unroll
  for (int j = 0; j < kPartitionItems; ++j) {
    if (first + j * kThreads + threadIdx.x >= last) continue;
    bucket[j] = bucket_of(key[j]);
    rank[j] = atomicAdd(&tally[bucket[j]], 1u);
  }
  __syncthreads();
  // Unsigned wrap-around is fine: out_base[b] + a place in line is a place in the output.
  bucket_places(scan, tally, buckets,
                [&](std::uint32_t b, std::uint32_t count, std::uint32_t in_line) {
                  if (count != 0) out_base[b] = atomicAdd(&cursors[b], count) - in_line;
                });
#pragma unroll
  for (int j = 0; j < kPartitionItems; ++j) {
    if (first + j * kThreads + threadIdx.x >= last) continue;
    const std::uint32_t at = tally[bucket[j]] + rank[j];
    line_key[at] = key[j];
    line_index[at] = index[j];
  }
  __syncthreads();
  const auto in_tile = static_cast<std::uint32_t>(last - first);
  for (std::uint32_t at = threadIdx.x; at < in_tile; at += kThreads) {
    const std::uint32_t k = line_key[at];
    const std::uint32_t place = out_base[bucket_of(k)] + at;
    keys_out[place] = k;
    indices_out[place] = line_index[at];
  }
}

// The count, the plan and the two passes: afterwards s.answers() holds the keys in stretch order
// and s.fourth() where each came from; the plan's starts say where each stretch's keys begin.
inline void partition_to_stretches(const std::uint32_t* keys, std::size_t n, OpenView view,
                                   const TwoPass& p, PartitionScratch& s, cudaStream_t stream) {
  std::uint32_t* plan = s.plan(p.words());
  CUDA_CHECK(cudaMemsetAsync(plan + p.counts(), 0, p.count * sizeof(std::uint32_t), stream));
  const std::size_t tally = p.count <= kSharedStretchCounts ? p.count * sizeof(std::uint32_t) : 0;
  stretch_count_kernel<<<2 * course::sm_count(), kPlanThreads, tally, stream>>>(keys, n, view, p,
                                                                                plan + p.counts());
  CUDA_CHECK_LAUNCH();
  two_pass_plan_kernel<<<1, kPlanThreads, 0, stream>>>(p, plan);
  CUDA_CHECK_LAUNCH();
  two_pass_scatter_kernel<false>
      <<<p.tiles, kThreads, 0, stream>>>(keys, nullptr, n, view, p, plan, s.keys(), s.second());
  CUDA_CHECK_LAUNCH();
  two_pass_scatter_kernel<true><<<p.tiles + p.regions, kThreads, 0, stream>>>(
      s.keys(), s.second(), n, view, p, plan, s.answers(), s.fourth());
  CUDA_CHECK_LAUNCH();
}

// v8's build and find blocks: block b has stretch b and the keys the plan says are its.
struct OwnStretch {
  static constexpr bool kAllOwn = true;
  TwoPass p;
  const std::uint32_t* starts;
  __device__ Stretch operator()() const {
    Stretch s;
    s.first = blockIdx.x * p.windows;
    s.end = min(s.first + p.windows, p.table_windows);
    s.slots = (s.end - s.first) * kWindow;
    s.begin = starts[blockIdx.x];
    s.finish = starts[blockIdx.x + 1];
    return s;
  }
  __device__ std::uint32_t home_window(const OpenView& table, std::uint32_t key) const {
    return lesson04::home_window(table, p, key);
  }
};

// v8's finds answer straight into the query's place, which came with it.
struct ToQuery {
  const std::uint32_t* places;
  std::uint32_t* out;
  __device__ void operator()(std::size_t j, std::uint32_t answer) const { out[places[j]] = answer; }
};

inline TwoPass two_pass_for(const OpenTable& table, std::size_t n, const Launch& launch) {
  static const std::uint32_t windows = stretch_windows();
  const std::size_t asked = launch.region_bytes / (kWindow * sizeof(Slot));
  return two_pass_for(table.capacity(), n,
                      launch.region_bytes == 0 ? windows : std::min<std::size_t>(asked, windows));
}

inline void insert_two_pass(const std::uint32_t* keys, std::size_t n, OpenTable& table,
                            Launch launch) {
  require_keys(n, kMaxKeys);
  const TwoPass p = two_pass_for(table, n, launch);
  const std::size_t shared = static_cast<std::size_t>(p.windows) * kWindow * sizeof(Slot);
  course::allow_shared_bytes(stretch_build_kernel<OwnStretch>, shared);
  with_scratch(n, Regions{}, launch, [&](PartitionScratch& s) {
    partition_to_stretches(keys, n, table.view(), p, s, launch.stream);
    std::uint32_t* spill_count = s.spill_count(true);
    CUDA_CHECK(cudaMemsetAsync(spill_count, 0, sizeof(std::uint32_t), launch.stream));
    // The first pass's output is free again: it holds the list of spilled keys.
    stretch_build_kernel<<<p.count, kBuildThreads, shared, launch.stream>>>(
        s.answers(), s.fourth(), table.view(), OwnStretch{p, s.plan(p.words()) + p.starts()},
        s.keys(), spill_count);
    CUDA_CHECK_LAUNCH();
    spilled_insert_kernel<<<course::sm_count(), kThreads, 0, launch.stream>>>(
        s.answers(), s.fourth(), s.keys(), spill_count, table.view());
    CUDA_CHECK_LAUNCH();
  });
}

inline void find_two_pass(const std::uint32_t* queries, std::size_t n, OpenTable& table,
                          std::uint32_t* out, Launch launch) {
  require_keys(n, kMaxKeys);
  const TwoPass p = two_pass_for(table, n, launch);
  const std::size_t shared = static_cast<std::size_t>(p.windows) * kWindow * sizeof(Slot);
  course::allow_shared_bytes(stretch_find_kernel<OwnStretch, ToQuery>, shared);
  with_scratch(n, Regions{}, launch, [&](PartitionScratch& s) {
    partition_to_stretches(queries, n, table.view(), p, s, launch.stream);
    stretch_find_kernel<<<p.count, kBuildThreads, shared, launch.stream>>>(
        s.answers(), table.view(), OwnStretch{p, s.plan(p.words()) + p.starts()},
        ToQuery{s.fourth(), out});
    CUDA_CHECK_LAUNCH();
  });
}

// ---- the library: a sorted array instead of a hash table
// -----------------------------------------

// What a CUDA user without a hash table would write: sort the (key, index) pairs with CUB's radix
// sort, and answer a query by binary search with Thrust. The sort is stable, so the last of a
// key's repeats is its last occurrence: upper_bound minus one finds it, which is insert-or-assign.
struct LastMatch {
  const std::uint32_t* keys;
  const std::uint32_t* values;
  __host__ __device__ std::uint32_t operator()(std::uint32_t end, std::uint32_t query) const {
    return end > 0 && keys[end - 1] == query ? values[end - 1] : kNotFound;
  }
};

class SortedTable {
 public:
  explicit SortedTable(std::size_t capacity) : keys_(capacity), values_(capacity), ends_(capacity) {
    std::size_t bytes = 0;
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
        nullptr, bytes, static_cast<const std::uint32_t*>(nullptr), keys_.data(),
        static_cast<const std::uint32_t*>(nullptr), values_.data(), capacity));
    temp_ = course::DeviceBuffer<unsigned char>(bytes);
  }
  // Sorts (keys[i], values[i]); values is the index sequence 0, 1, ..., n - 1.
  void build(const std::uint32_t* keys, const std::uint32_t* values, std::size_t n,
             cudaStream_t stream = nullptr) {
    require_keys(n, keys_.size());
    std::size_t bytes = temp_.size();
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp_.data(), bytes, keys, keys_.data(), values,
                                               values_.data(), n, 0, 32, stream));
    size_ = n;
  }
  void find(const std::uint32_t* queries, std::size_t m, std::uint32_t* out,
            cudaStream_t stream = nullptr) {
    require_keys(m, ends_.size());
    const auto policy = thrust::cuda::par.on(stream);
    thrust::upper_bound(policy, keys_.data(), keys_.data() + size_, queries, queries + m,
                        ends_.data());
    thrust::transform(policy, ends_.data(), ends_.data() + m, queries, out,
                      LastMatch{keys_.data(), values_.data()});
  }

 private:
  course::DeviceBuffer<std::uint32_t> keys_;
  course::DeviceBuffer<std::uint32_t> values_;
  course::DeviceBuffer<std::uint32_t> ends_;
  course::DeviceBuffer<unsigned char> temp_;
  std::size_t size_ = 0;
};

// ---- the versions, in order ---------------------------------------------------------------------

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
