// Lesson 04: a hash table built on the GPU. One kernel per version, in order, each followed by the
// host function that runs it; read from v0 down. Each version changes one idea.
//
// Every insert function puts the n keys at `keys` (device memory, any n >= 1) into a table, entry
// i holding (keys[i], i), and enqueues all its work on launch.stream. The chained versions (v0 to
// v3) keep every entry, as the book does; open addressing (v4, v5) keeps each distinct key once,
// with the index of its last occurrence (reference.hpp says why). The find functions write, for
// each query, its key's value or kNotFound.
#pragma once

#include <cooperative_groups.h>
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/transform.h>
#include <cub/device/device_radix_sort.cuh>
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

// How to run a version: on which stream, and with how many blocks (0: the version's own grid).
struct Launch {
  cudaStream_t stream = nullptr;
  int blocks = 0;
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
// been seen: the table is full, and the insert says so instead of looping for ever.
__device__ inline void insert_or_assign(const OpenView& table, std::uint32_t key,
                                        std::uint32_t value) {
  if (key == kEmptyKey) {
    assign_empty_key(table, value);
    return;
  }
  const Slot mine = pack(key, value);
  std::uint32_t s = home(table, key, table.capacity);
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

// Find follows the same probe sequence. The table does not change while find runs, so the slots
// are read through the read-only path (__ldg). An empty slot ends the search: an insert would have
// claimed it. A full table has none, so the search also stops after `capacity` probes.
__device__ inline std::uint32_t find(const OpenView& table, std::uint32_t key) {
  if (key == kEmptyKey) return find_empty_key(table);
  std::uint32_t s = home(table, key, table.capacity);
  for (std::uint32_t probes = 0; probes < table.capacity; ++probes) {
    const Slot slot = __ldg(&table.slots[s]);
    if (key_of(slot) == key) return value_of(slot);
    if (slot == kEmptySlot) return kNotFound;
    s = s + 1 == table.capacity ? 0 : s + 1;
  }
  return kNotFound;
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

// Tile t of the grid takes keys t, t + tiles, ...: every thread of a tile runs the same loop.
template <int W>
__global__ void tile_insert_kernel(const std::uint32_t* keys, std::size_t n, OpenView table) {
  const auto tile = cg::tiled_partition<W>(cg::this_thread_block());
  for (std::size_t i = course::first_index() / W; i < n; i += course::grid_stride() / W)
    insert_or_assign_tile<W>(tile, table, keys[i], static_cast<std::uint32_t>(i));
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
  };
  return all;
}

}  // namespace lesson04
