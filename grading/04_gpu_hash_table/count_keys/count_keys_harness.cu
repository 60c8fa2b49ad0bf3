// The harness of exercise 1 (lesson 04): a grid-stride kernel that calls the student's count_key
// once for every key, and the table copied back and followed on the CPU.
#include "../../probes/harness.hpp"

#include <count_keys.cuh>  // the student's file

#include "../../../common/launch.hpp"
#include "count_keys_harness.hpp"

#include <memory>

namespace grading04 {

// (Outside an anonymous namespace, so that the compiled-code check's messages can name it.)
__global__ void count_kernel(const std::uint32_t* keys, std::size_t n,
                             exercise04::CountTable table) {
  for (std::size_t i = course::first_index(); i < n; i += course::grid_stride()) {
    exercise04::count_key(table, keys[i]);
  }
}

namespace {

using exercise04::CountEntry;

// A fresh table's memory: every list empty, every lock free, every count zero.
struct TableMemory {
  course::DeviceBuffer<CountEntry*> heads;
  course::DeviceBuffer<CountEntry> pool;
  course::DeviceBuffer<unsigned long long> used;  // entries handed out
  course::DeviceBuffer<int> locks;
  course::DeviceBuffer<unsigned long long> acquisitions;  // per bucket

  TableMemory(std::size_t n, std::uint32_t buckets)
      : heads(buckets), pool(n), used(1), locks(buckets), acquisitions(buckets) {
    heads.fill_bytes(0);
    pool.fill_bytes(0);
    used.fill_bytes(0);
    locks.fill_bytes(0);
    acquisitions.fill_bytes(0);
  }
  exercise04::CountTable table(std::uint32_t buckets) {
    return {heads.data(), pool.data(), used.data(), locks.data(), acquisitions.data(), buckets};
  }
};

}  // namespace

namespace {

// The table of the last timed count, kept until the next one, so that the tests can check it.
struct Timed {
  std::unique_ptr<TableMemory> memory;
  std::size_t n = 0;
  std::uint32_t buckets = 0;
};
Timed& timed() {
  static Timed last;
  return last;
}

CountedTable read_table(TableMemory& memory, std::size_t n, std::uint32_t buckets) {
  CountedTable out;
  out.entries_used = memory.used.download()[0];
  out.acquisitions = memory.acquisitions.download();
  for (unsigned long long taken : out.acquisitions)
    out.lock_acquisitions += taken;
  const std::vector<CountEntry*> host_heads = memory.heads.download();
  const std::vector<CountEntry> host_pool = memory.pool.download();
  const auto first = reinterpret_cast<std::uintptr_t>(memory.pool.data());
  out.buckets.resize(buckets);
  std::vector<unsigned char> seen(n, 0);  // an entry on two lists, or twice on one
  for (std::uint32_t b = 0; b < buckets; ++b) {
    for (const CountEntry* e = host_heads[b]; e != nullptr;) {
      const auto address = reinterpret_cast<std::uintptr_t>(e);
      const std::size_t index = (address - first) / sizeof(CountEntry);
      if (address < first || index >= n || (address - first) % sizeof(CountEntry) != 0 ||
          seen[index]) {
        ++out.broken;
        break;
      }
      seen[index] = 1;
      out.buckets[b].emplace_back(host_pool[index].key, host_pool[index].count);
      e = host_pool[index].next;
    }
  }
  return out;
}

}  // namespace

CountedTable count_keys(const std::uint32_t* d_keys, std::size_t n, std::uint32_t buckets,
                        int blocks, int threads) {
  TableMemory memory(n, buckets);
  const exercise04::CountTable table = memory.table(buckets);
  grading::watched([&] { count_kernel<<<blocks, threads>>>(d_keys, n, table); });
  return read_table(memory, n, buckets);
}

void count_keys_only(const std::uint32_t* d_keys, std::size_t n, std::uint32_t buckets,
                     int blocks) {
  Timed& last = timed();
  last.memory.reset();  // the last count's table, freed as a count that kept nothing would free it
  last.memory = std::make_unique<TableMemory>(n, buckets);
  last.n = n;
  last.buckets = buckets;
  const exercise04::CountTable table = last.memory->table(buckets);
  grading::watched([&] { count_kernel<<<blocks, 256>>>(d_keys, n, table); });
}

CountedTable last_timed_table() {
  Timed& last = timed();
  if (!last.memory) return {};
  return read_table(*last.memory, last.n, last.buckets);
}

}  // namespace grading04
