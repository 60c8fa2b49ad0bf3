// v0 to v3, chained tables as the book builds them: a bucket's entries in a linked list, its head
// taken under a lock (v0, v1) or swapped in by a compare-and-swap (v2, v3). Every entry is kept.
#pragma once

#include <cuda/atomic>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <03_lock_dot_product/lock.cuh>
#include "../reference.hpp"
#include "check.hpp"
#include "device_memory.hpp"
#include "launch.hpp"
#include "settings.cuh"

namespace lesson04 {

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
  return launch.blocks > 0 ? launch.blocks : kSourceBlocks;
}

// v0, the book's table: a lock per bucket, taken by the 32 threads of a warp one at a time. Before
// Volta (compute capability 7.0), a warp's threads shared one program counter: a thread spinning
// on a lock that another thread of its own warp held kept that thread from ever running on to its
// unlock, and the warp hung. The loop over lanes lets one thread in at a time. The lock orders
// nothing (lesson 03's lock.cuh): the head read inside it may be a stale copy in this SM's L1, and
// the entry written before it is then lost. kReadFromL2 reads the head with __ldcg, past L1, to
// test that.
template <bool kReadFromL2>
__global__ void source_insert_kernel(const std::uint32_t* keys, std::size_t n, ChainedView table) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    const std::uint32_t key = keys[i];
    const std::uint32_t b = bucket_of(key, table.buckets);
    Entry* entry = fill_entry(table, key, i);
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (threadIdx.x % 32 == lane) {
        const lesson03::SourceLock lock{&table.locks[b]};
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
void insert_source_lock(const std::uint32_t* keys, std::size_t n, ChainedTable& table,
                        Launch launch) {
  require_keys(n, table.capacity());
  source_insert_kernel<kReadFromL2>
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
// table): the book's 25,600 keys a bucket no longer queue at each head, and far fewer CAS fail
// (ncu at n = 2^22, docs/results/h100-80gb-hbm3/lesson04_ncu.txt: 1.5 atomic requests a key, where
// v2 makes about a dozen; the half beyond one a key is retries).

}  // namespace lesson04
